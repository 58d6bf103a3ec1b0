import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/** Liveness, readiness and the API version (moved from test/foundation.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

describe('health and version', () => {
  it('answers liveness and readiness without a token', async () => {
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('returns the API version string', async () => {
    const res = await t.request('GET', '/v1/Version', { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toBe('1.14.0');
  });
});
