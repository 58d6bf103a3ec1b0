import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondRuntime, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { CookieJar, type Tokens } from '../../../test/support/oidc-login.ts';

/** The embedded identity provider driven like a browser, and its signing keys in DATA_DIR (moved from test/foundation.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly base: string) {}
  async go(url: string, init: RequestInit = {}) {
    const res = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers ?? {}), cookie: this.jar.header() },
    });
    this.jar.store(res);
    return res;
  }
  post(url: string, form: Record<string, string>) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }
}

const CLIENT_ID = 'shk-portal-web';
const callbackOf = () => `${t.config.publicUrl}/auth-callback`;

/** Starts an authorization request and follows redirects until the login page or the SPA callback. */
async function authorize(
  browser: Browser,
  verifier: string,
  prompt?: string,
): Promise<{ loginUrl?: string; code?: string; error?: string }> {
  const url = new URL(`${t.config.publicUrl}/auth/auth`);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: callbackOf(),
    scope: 'openid profile email offline_access',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(6).toString('hex'),
    ...(prompt ? { prompt } : {}),
  }).toString();
  let res = await browser.go(url.toString());
  for (let hop = 0; hop < 6; hop++) {
    const location = res.headers.get('location');
    if (!location) break;
    if (location.startsWith(callbackOf())) {
      const params = new URL(location).searchParams;
      return { code: params.get('code') ?? undefined, error: params.get('error') ?? undefined };
    }
    if (location.includes('/auth/interaction/')) return { loginUrl: new URL(location, t.config.publicUrl).toString() };
    res = await browser.go(location);
  }
  throw new Error(`authorize ended with ${res.status}`);
}

async function exchange(code: string, verifier: string): Promise<Tokens> {
  const res = await fetch(`${t.config.publicUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackOf(),
      client_id: CLIENT_ID,
      code_verifier: verifier,
    }).toString(),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<Tokens>;
}

async function signIn(browser: Browser, email: string, password = 'demo') {
  const verifier = randomBytes(32).toString('base64url');
  const { loginUrl } = await authorize(browser, verifier, 'login');
  const page = await (await browser.go(loginUrl!)).text();
  const action = page.match(/action="([^"]+)"/)![1];
  let res = await browser.post(action, { login: email, password });
  let location = res.headers.get('location');
  for (let hop = 0; hop < 6 && location && !location.startsWith(callbackOf()); hop++) {
    res = await browser.go(location);
    location = res.headers.get('location');
  }
  const code = new URL(location!).searchParams.get('code')!;
  return exchange(code, verifier);
}

describe('embedded identity provider', () => {
  it('publishes its discovery document at /auth', async () => {
    const res = await t.request('GET', '/auth/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: `${t.config.publicUrl}/auth`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.body.end_session_endpoint).toBe(`${t.config.publicUrl}/auth/session/end`);
  });

  it('shows a German login page with inputs login and password and the button Anmelden', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { loginUrl } = await authorize(browser, randomBytes(32).toString('base64url'));
    expect(loginUrl).toBeDefined();
    const res = await browser.go(loginUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/<input[^>]*name="login"/);
    expect(html).toMatch(
      /<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/,
    );
    expect(html).toMatch(/<button type="submit">Anmelden<\/button>/);
    expect(html).toContain('E-Mail-Adresse');
    expect(html).toContain('Passwort');
  });

  it('answers wrong credentials with a German error and no session', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { loginUrl } = await authorize(browser, randomBytes(32).toString('base64url'));
    const action = (await (await browser.go(loginUrl!)).text()).match(/action="([^"]+)"/)![1];
    for (const [login, password] of [
      [BUYER, 'falsch'],
      ['niemand@example.com', 'demo'],
    ]) {
      const res = await browser.post(action, { login, password });
      expect(res.status).toBe(401);
      const html = await res.text();
      expect(html).toContain('E-Mail-Adresse oder Passwort ist falsch.');
      expect(html).toContain(`value="${login}"`);
      expect(html).toMatch(/<input[^>]*name="password"/);
    }
  });

  it('issues JWT access tokens for the API audience that the API accepts', async () => {
    const tokens = await signIn(new Browser(t.config.publicUrl), 'support@example.com');
    const [, payload] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({
      iss: `${t.config.publicUrl}/auth`,
      aud: 'urn:shk-portal:api',
      sub: '00000000-0000-4000-8000-000000000005',
    });
    const me = await t.request('GET', '/v1/UserProfile', { token: tokens.access_token });
    expect(me.body).toMatchObject({ email: 'support@example.com', role: 4 });
  });

  it('end-session really ends the provider session', async () => {
    const browser = new Browser(t.config.publicUrl);
    const tokens = await signIn(browser, BUYER);

    // While the session lives, a new authorization needs no login (the SPA's silent renewal: prompt=none).
    expect((await authorize(browser, randomBytes(32).toString('base64url'))).code).toBeTruthy();
    expect((await authorize(browser, randomBytes(32).toString('base64url'), 'none')).code).toBeTruthy();

    const end = new URL(`${t.config.publicUrl}/auth/session/end`);
    end.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
    }).toString();
    const page = await browser.go(end.toString());
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="de"');
    const action = html.match(/<form[^>]*action="([^"]+)"/)![1];
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(fields.logout).toBe('yes');
    const confirmed = await browser.post(action, fields);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${t.config.publicUrl}/`);

    // The provider session is gone: the next authorization shows the login page again …
    const after = await authorize(browser, randomBytes(32).toString('base64url'));
    expect(after.code).toBeUndefined();
    expect(after.loginUrl).toContain('/auth/interaction/');
    // … and silent renewal fails with login_required.
    const silent = await authorize(browser, randomBytes(32).toString('base64url'), 'none');
    expect(silent).toMatchObject({ code: undefined, error: 'login_required' });
  });
});

describe('signing keys live in PostgreSQL', () => {
  it('a token issued by one node is accepted by a second node on the same database with another DATA_DIR', async () => {
    let first: TestApp | undefined;
    let second: Awaited<ReturnType<typeof startSecondRuntime>> | undefined;
    try {
      first = await startTestApp();
      const token = await first.token(BUYER);
      expect(fs.existsSync(path.join(first.config.dataDir, 'identity', 'keys.json'))).toBe(false);
      const otherDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-keys-'));
      second = await startSecondRuntime({ ...first, config: { ...first.config, dataDir: otherDataDir } });
      const res = await fetch(`${second.baseUrl}/v1/UserProfile`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { email: string }).email).toBe(BUYER);
      fs.rmSync(otherDataDir, { recursive: true, force: true });
    } finally {
      await second?.close();
      await first?.close();
    }
  }, 120_000);

  it('an installation upgraded from one node keeps the keys of its DATA_DIR (tokens issued before stay valid)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-keys-'));
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      first = await startTestApp({ env: { DATA_DIR: dataDir } });
      const token = await first.token(BUYER);
      const publicUrl = first.config.publicUrl;
      // What the version before kept in DATA_DIR: the keys this database holds now.
      const { rows } = await first.pool.query<{ value: object }>(
        "SELECT value FROM cluster_secrets WHERE name = 'identity_keys'",
      );
      await first.close();
      first = undefined;
      fs.mkdirSync(path.join(dataDir, 'identity'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'identity', 'keys.json'), JSON.stringify(rows[0].value));

      // A fresh database (nothing in cluster_secrets) with that DATA_DIR takes its keys over: the old token is valid.
      second = await startTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: publicUrl } });
      expect((await second.request('GET', '/v1/UserProfile', { token })).status).toBe(200);
    } finally {
      await first?.close();
      await second?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
