import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The identity provider's answers under /auth carry the portal's transport rules too (docs/security.md): HSTS with
 * an https PUBLIC_URL, and a CORS preflight of /auth/token answers like the real request (only the portal's origin).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: 'https://portal.example' } });
});
afterAll(async () => {
  await t?.close();
});

const preflight = (origin: string) =>
  fetch(`${t.baseUrl}/auth/token`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

const tokenPost = (origin: string) =>
  fetch(`${t.baseUrl}/auth/token`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'shk-portal-web' }).toString(),
  });

describe('/auth headers', () => {
  it('sends HSTS on the provider answers when PUBLIC_URL is https', async () => {
    for (const path of ['/auth/.well-known/openid-configuration', '/auth/jwks', '/auth/token']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toMatch(/max-age=\d{7,}/);
    }
  });

  it('answers the preflight of /auth/token like the real request', async () => {
    const foreign = 'https://angreifer.example';
    expect((await tokenPost(foreign)).headers.get('access-control-allow-origin')).toBeNull();
    const refused = await preflight(foreign);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();

    const own = 'https://portal.example';
    expect((await tokenPost(own)).headers.get('access-control-allow-origin')).toBe(own);
    const allowed = await preflight(own);
    expect(allowed.status).toBeLessThan(300);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(own);
  });
});
