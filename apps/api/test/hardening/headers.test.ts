import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGOUT_SCRIPT } from '../../src/modules/identity/pages.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function directives(csp: string | null) {
  expect(csp, 'content-security-policy').toBeTruthy();
  return Object.fromEntries(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;
}

function expectSecurityHeaders(headers: Headers, what: string) {
  const csp = directives(headers.get('content-security-policy'));
  expect(csp['script-src'], what).not.toContain("'unsafe-inline'");
  expect(csp['script-src'], what).not.toContain("'unsafe-eval'");
  expect(csp['frame-ancestors'], what).toEqual(["'self'"]);
  expect(csp['object-src'], what).toEqual(["'none'"]);
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
  // Plain HTTP: no HSTS.
  expect(headers.get('strict-transport-security'), what).toBeNull();
}

describe('security headers', () => {
  it('are on every kind of response: API, problem, health, provider, login page', async () => {
    const responses = {
      api: await t.request('GET', '/v1/UserProfile', { as: 'einkauf@example.com' }),
      problem: await t.request('GET', '/v1/NoSuchThing'),
      unauthorized: await t.request('GET', '/v1/UserProfile'),
      health: await t.request('GET', '/health'),
      discovery: await t.request('GET', '/auth/.well-known/openid-configuration'),
    };
    for (const [what, res] of Object.entries(responses)) expectSecurityHeaders(res.headers, what);

    const authorize = await fetch(
      `${t.baseUrl}/auth/auth?client_id=shk-portal-web&response_type=code&scope=openid&code_challenge=${'x'.repeat(43)}&code_challenge_method=S256&redirect_uri=${encodeURIComponent(`${t.config.publicUrl}/auth-callback`)}`,
      { redirect: 'manual' },
    );
    expectSecurityHeaders(authorize.headers, 'authorize redirect');
    const cookie = authorize.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const login = await fetch(new URL(authorize.headers.get('location')!, t.baseUrl), { headers: { cookie } });
    expect(login.status).toBe(200);
    expectSecurityHeaders(login.headers, 'login page');
    // The login page works under the policy: no inline script, the form posts to our origin.
    const html = await login.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toMatch(/<form[^>]*action="\/auth\/interaction\//);
  });

  it("allow the provider's logout page script by its hash and nothing else inline", async () => {
    const res = await t.request('GET', '/health');
    const hash = `'sha256-${createHash('sha256').update(LOGOUT_SCRIPT).digest('base64')}'`;
    expect(directives(res.headers.get('content-security-policy'))['script-src']).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      hash,
    ]);
  });

  it('send HSTS when the portal is served over TLS', async () => {
    const tls = await startTestApp({ env: { PUBLIC_URL: 'https://portal.example' } });
    try {
      const res = await tls.request('GET', '/health');
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
      // The embedded identity provider's answers too: discovery, the authorization redirect, the token endpoint.
      const provider = {
        discovery: await tls.request('GET', '/auth/.well-known/openid-configuration'),
        jwks: await tls.request('GET', '/auth/jwks'),
        token: await tls.request('POST', '/auth/token', {
          body: 'grant_type=authorization_code&code=x&client_id=shk-portal-web',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        authorize: await fetch(`${tls.baseUrl}/auth/auth?client_id=shk-portal-web&response_type=code&scope=openid`, {
          redirect: 'manual',
        }),
      };
      for (const [what, answer] of Object.entries(provider)) {
        expect(answer.headers.get('strict-transport-security'), what).toMatch(/max-age=\d{7,}/);
      }
    } finally {
      await tls.close();
    }
  });

  it("answer the token endpoint's CORS preflight as the request itself: only the portal's origin", async () => {
    const portal = new URL(t.config.publicUrl).origin;
    const preflight = (origin: string) =>
      fetch(`${t.baseUrl}/auth/token`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const post = (origin: string) =>
      fetch(`${t.baseUrl}/auth/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=unbekannt&client_id=shk-portal-web&redirect_uri=x&code_verifier=y',
      });

    const foreign = 'https://boese.example';
    const [foreignPreflight, foreignPost] = [await preflight(foreign), await post(foreign)];
    expect(foreignPost.headers.get('access-control-allow-origin')).toBeNull();
    // The preflight lets the browser send nothing the request would refuse.
    expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreignPreflight.headers.get('access-control-allow-methods')).toBeNull();

    const [ownPreflight, ownPost] = [await preflight(portal), await post(portal)];
    expect(ownPost.headers.get('access-control-allow-origin')).toBe(portal);
    expect(ownPreflight.status).toBe(204);
    expect(ownPreflight.headers.get('access-control-allow-origin')).toBe(portal);
    expect(ownPreflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(ownPreflight.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('content-type');
  });

  it('make every file from the API a download (attachment, nosniff)', async () => {
    const [picture] = (
      await t.pool.query<{ id: number; file: string }>(
        `SELECT id, m->>'file' AS file FROM products, jsonb_array_elements(media) m WHERE m->>'type' = 'picture' ORDER BY id LIMIT 1`,
      )
    ).rows;
    const res = await t.request('GET', `/v1/Media/Products/${picture.id}/${encodeURIComponent(picture.file)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answer /favicon.ico (no 404 on pages without an icon link, such as the login page)', async () => {
    const res = await t.request('GET', '/favicon.ico');
    expect(res.status).not.toBe(404);
    expect(res.status).toBeLessThan(300);
  });
});

describe('external origins for manufacturer videos and the help widget', () => {
  it('are allowed for media, frames and scripts only when CSP_EXTERNAL_ORIGINS names them', async () => {
    const other = await startTestApp({
      env: { CSP_EXTERNAL_ORIGINS: 'https://videos.hersteller.example/intro.mp4, javascript:alert(1) nicht-url' },
    });
    try {
      const csp = directives((await other.request('GET', '/health')).headers.get('content-security-policy'));
      for (const name of ['media-src', 'frame-src', 'script-src']) {
        expect(csp[name], name).toContain('https://videos.hersteller.example');
      }
      expect(csp['script-src'].join(' ')).not.toContain('javascript');
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
    } finally {
      await other.close();
    }
    const plain = directives((await t.request('GET', '/health')).headers.get('content-security-policy'));
    expect(plain['media-src']).toEqual(["'self'"]);
    expect(plain['frame-src']).toEqual(["'self'"]);
  }, 120_000);
});
