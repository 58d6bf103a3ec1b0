import { PAIR_POLICY } from '../../src/modules/identity/login-throttle.ts';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/oidc-browser.ts';
import { startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('login throttling', () => {
  it('delays an account after repeated failures, with a German message, whatever X-Forwarded-For says', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { action } = await browser.loginForm();
    const statuses: number[] = [];
    // The free failures and the one that starts the delay (login-throttle.ts); X-Forwarded-For is not trusted.
    for (let i = 0; i <= PAIR_POLICY.free; i++) {
      const res = await browser.post(
        action,
        { login: 'einkauf2@example.com', password: `falsch-${i}` },
        { 'x-forwarded-for': `203.0.113.${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(PAIR_POLICY.free + 1).fill(401));
    // Even the right password is refused while the delay lasts.
    const locked = await browser.post(action, { login: 'EINKAUF2@example.com', password: 'demo' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await locked.text();
    expect(html).toContain('Zu viele fehlgeschlagene Anmeldeversuche');
    expect(html).toContain('lang="de"');
  });

  it('spends the same password work on unknown accounts (no enumeration by timing)', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { action } = await browser.loginForm();
    const time = async (login: string) => {
      const started = process.hrtime.bigint();
      const res = await browser.post(action, { login, password: 'falsch' });
      expect(res.status).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(i % 2 ? 'verkauf@example.com' : 'support@example.com'));
      unknown.push(await time(`niemand-${i}@example.com`));
    }
    // Without the dummy hash an unknown account answers in a fraction of a known one's scrypt time.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});

describe('tokens and sessions', () => {
  it('issues short-lived access tokens', async () => {
    const tokens = await new Browser(t.config.publicUrl).signIn('admin@example.com');
    expect(tokens.expires_in).toBeLessThanOrEqual(300);
    expect(tokens.expires_in).toBeGreaterThan(60);
  });

  it('a token used after logout is a 401', async () => {
    const browser = new Browser(t.config.publicUrl);
    const tokens = await browser.signIn('betrieb@example.com');
    expect((await t.request('GET', '/v1/UserProfile', { token: tokens.access_token })).status).toBe(200);

    expect(await browser.signOut(tokens.id_token)).toBe(303);

    const after = await t.request('GET', '/v1/UserProfile', { token: tokens.access_token });
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe('Das Zugriffstoken gilt nicht mehr, weil Sie sich abgemeldet haben.');
  });

  it('a token signed out on one API process is a 401 on another that had its caller cached', async () => {
    const second = await startSecondRuntime(t);
    try {
      const browser = new Browser(t.config.publicUrl);
      const tokens = await browser.signIn('einkauf@example.com');
      const onSecond = () =>
        fetch(`${second.baseUrl}/v1/UserProfile`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect((await onSecond()).status).toBe(200);
      expect((await onSecond()).status).toBe(200);

      const seen = second.app.callerCache.notifications;
      expect(await browser.signOut(tokens.id_token)).toBe(303);
      // The sign-out's NOTIFY reaches the second process about 0.1 ms after its commit; in this one test process
      // the next request could overtake it, so it waits for the delivery (a browser's next request cannot).
      for (let i = 0; second.app.callerCache.notifications === seen && i < 10_000; i++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const after = await onSecond();
      expect(after.status).toBe(401);
      expect(((await after.json()) as { detail: string }).detail).toBe(
        'Das Zugriffstoken gilt nicht mehr, weil Sie sich abgemeldet haben.',
      );
    } finally {
      await second.close();
    }
  });

  it('accepts the Vite dev server redirect URI only in development', async () => {
    const authorize = new URL('/auth/auth', t.config.publicUrl);
    authorize.search = new URLSearchParams({
      client_id: 'shk-portal-web',
      response_type: 'code',
      redirect_uri: 'http://localhost:5173/auth-callback',
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const res = await fetch(authorize, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

/** Raw HTTP, because fetch does not let a caller choose the Host header. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('token endpoint from the browser', () => {
  it("allows CORS for the portal's own origin only (the SPA's code exchange sends Origin)", async () => {
    const preflight = (origin: string) =>
      fetch(`${t.baseUrl}/auth/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const own = await preflight(new URL(t.config.publicUrl).origin);
    expect(own.headers.get('access-control-allow-origin')).toBe(new URL(t.config.publicUrl).origin);
    const code = await fetch(`${t.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { origin: new URL(t.config.publicUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=unbekannt&client_id=shk-portal-web&redirect_uri=x&code_verifier=y',
    });
    // Reaches the grant check (invalid_grant), not a CORS refusal.
    expect((await code.json()).error).toBe('invalid_grant');
    const foreign = await fetch(`${t.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=unbekannt&client_id=shk-portal-web&redirect_uri=x&code_verifier=y',
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect((await foreign.json()).error).not.toBe('invalid_grant');
  });
});

describe('issuer', () => {
  it('advertises PUBLIC_URL only, whatever Host or X-Forwarded-* a client sends', async () => {
    const res = await rawGet(`${t.baseUrl}/auth/.well-known/openid-configuration`, {
      host: 'evil.example:8443',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(res.status).toBe(200);
    const discovery = JSON.parse(res.body) as Record<string, unknown>;
    const urls = Object.values(discovery).filter((v): v is string => typeof v === 'string' && /^https?:/.test(v));
    expect(urls.length).toBeGreaterThan(4);
    for (const url of urls) expect(url.startsWith(`${t.config.publicUrl}/auth`), url).toBe(true);
  });
});

describe('login throttling per address', () => {
  it('limits attempts from one client address across accounts', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { action } = await browser.loginForm();
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) {
      status = (await browser.post(action, { login: `jemand-${i}@example.com`, password: 'x' })).status;
    }
    expect(status).toBe(429);
  });
});
