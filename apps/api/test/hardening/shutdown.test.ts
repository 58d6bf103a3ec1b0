import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app.ts';

/**
 * Closing the app (SIGTERM, the end of a test file) must not wait for clients: a socket that was opened
 * but never sent a request would otherwise hold the HTTP server open until Node's request timeout (5 min).
 */
describe('shutdown', () => {
  it('finishes although a client holds a connection without sending a request', async () => {
    const t = await startTestApp();
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    // One real request on another connection, so the server has served something before it closes.
    expect((await t.request('GET', '/health')).status).toBe(200);

    const closed = t.close().then(() => 'closed' as const);
    const outcome = await Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 30_000))]);
    socket.destroy();
    expect(outcome).toBe('closed');
    await closed;
  }, 120_000);
});
