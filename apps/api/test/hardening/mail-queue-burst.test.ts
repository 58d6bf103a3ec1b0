import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';

/**
 * A burst of mails (a busy hour's order confirmations) leaves as fast as the mail server takes them: pg-boss waits its
 * polling interval (0.5 s) after every fetch, so the mail queue's four workers sent at most 8 mails a second, and every
 * checkout's buyer mail queued behind the others (jobs.ts wakes a worker that found a job at once).
 */

let t: TestApp;
let smtp: SmtpPeer;
const MAILS = 80;
/** The polling interval alone needs 10 s for 80 mails (4 workers, 2 a second each). */
const LIMIT_MS = 8000;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the mail queue', () => {
  it(`${MAILS} queued mails are all sent within 8 s (the polling interval alone needed 10 s), each once`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < MAILS; i++)
      ids.push(
        await t.mail.enqueue({ to: `empfaenger${i}@example.com`, subject: `Stoß ${i}`, text: `Nachricht ${i}` }),
      );
    const started = performance.now();
    await t.mail.dispatch(ids);
    await eventually(async () => {
      const { rows } = await t.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mail_outbox WHERE id = ANY($1) AND status = 'sent'`,
        [ids],
      );
      return rows[0].n === MAILS;
    }, 30_000);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeLessThan(LIMIT_MS);
    const received = smtp.messages.filter((m) => /^empfaenger\d+@example\.com$/.test(m.to[0] ?? ''));
    expect(received).toHaveLength(MAILS);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(MAILS);
  });
});
