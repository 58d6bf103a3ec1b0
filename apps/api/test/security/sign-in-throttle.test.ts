import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';
import { CookieJar, loginWithCodeFlow } from '../support/oidc-login.ts';
import { ADDRESS_POLICY, PAIR_POLICY } from '../../src/modules/identity/login-throttle.ts';

/**
 * The sign-in throttle counts failed attempts only (docs/security.md, "Login throttling"): per account and client
 * address and per client address, in PostgreSQL; a pair beyond its free failures waits a growing delay, a success
 * resets it, and nobody else is locked out. The proxy is trusted on loopback, so X-Forwarded-For sets the address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
});
afterAll(async () => {
  await t?.close();
});

/** A browser at one client address: the login form of a fresh authorization, and its posts. */
class Browser {
  private readonly jar = new CookieJar();
  constructor(
    private readonly base: string,
    readonly address: string,
  ) {}
  private async go(url: string, init: RequestInit = {}) {
    const response = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: this.jar.header(),
        'x-forwarded-for': this.address,
      },
    });
    this.jar.store(response);
    return response;
  }
  async loginForm(): Promise<string> {
    const authorize = new URL('/auth/auth', this.base);
    authorize.search = new URLSearchParams({
      client_id: 'shk-portal-web',
      response_type: 'code',
      redirect_uri: `${t.config.publicUrl}/auth-callback`,
      scope: 'openid profile email',
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'x',
      prompt: 'login',
    }).toString();
    const start = await this.go(authorize.toString());
    const page = await this.go(start.headers.get('location')!);
    return (await page.text()).match(/action="([^"]+)"/)![1];
  }
  /** One sign-in attempt on a fresh form; 303 (signed in), 401 (wrong password) or 429 (delayed). */
  async attempt(login: string, password: string, action?: string) {
    const res = await this.go(action ?? (await this.loginForm()), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password }).toString(),
    });
    return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0), text: await res.text() };
  }
}

describe('sign-in throttle', () => {
  it('never counts successful sign-ins: one account 12 times, one address 40 times', async () => {
    const users = ['einkauf@example.com', 'verkauf@example.com', 'admin@example.com', 'support@example.com'];
    for (let i = 0; i < 40; i++) {
      const user = i < 12 ? 'einkauf2@example.com' : users[i % users.length];
      await expect(loginWithCodeFlow(t.config.publicUrl, user), `sign-in ${i + 1} (${user})`).resolves.toBeTruthy();
    }
  }, 120_000);

  it('does not let posts to an invalid interaction lock a named account', async () => {
    const browser = new Browser(t.baseUrl, '198.51.100.7');
    for (let i = 0; i < 12; i++) {
      const res = await browser.attempt('verkauf@example.com', 'falsch', '/auth/interaction/ungueltig/login');
      expect(res.status).toBe(400);
    }
    expect((await browser.attempt('verkauf@example.com', 'demo')).status).toBe(303);
  });

  it('delays one account at one address progressively, not everybody, and a success resets it', async () => {
    const attacker = new Browser(t.baseUrl, '203.0.113.9');
    for (let i = 0; i < PAIR_POLICY.free; i++) {
      expect((await attacker.attempt('einkauf@example.com', `falsch-${i}`)).status).toBe(401);
    }
    // The failure beyond the free ones delays this pair …
    expect((await attacker.attempt('einkauf@example.com', 'falsch-x')).status).toBe(401);
    const delayed = await attacker.attempt('einkauf@example.com', 'demo');
    expect(delayed.status).toBe(429);
    expect(delayed.retryAfter).toBeGreaterThan(0);
    expect(delayed.retryAfter).toBeLessThanOrEqual(PAIR_POLICY.baseSeconds);
    expect(delayed.text).toContain('Zu viele fehlgeschlagene Anmeldeversuche');
    // … but the owner at another address signs in, and another account at the attacker's address too.
    expect((await new Browser(t.baseUrl, '192.0.2.44').attempt('einkauf@example.com', 'demo')).status).toBe(303);
    expect((await attacker.attempt('verkauf@example.com', 'demo')).status).toBe(303);

    // The delay grows with every further failure (once the previous delay is over).
    await t.pool.query("UPDATE sign_in_failures SET blocked_until = now() WHERE key LIKE 'login:pair:einkauf@%'");
    expect((await attacker.attempt('einkauf@example.com', 'falsch-y')).status).toBe(401);
    const longer = await attacker.attempt('einkauf@example.com', 'demo');
    expect(longer.status).toBe(429);
    expect(longer.retryAfter).toBeGreaterThan(PAIR_POLICY.baseSeconds);

    // A success resets the pair: four failures, a success, five failures – still no delay.
    const owner = new Browser(t.baseUrl, '192.0.2.45');
    for (let i = 0; i < PAIR_POLICY.free - 1; i++) await owner.attempt('support@example.com', 'vertippt');
    expect((await owner.attempt('support@example.com', 'demo')).status).toBe(303);
    for (let i = 0; i < PAIR_POLICY.free; i++) {
      expect((await owner.attempt('support@example.com', 'vertippt')).status).toBe(401);
    }
    expect((await owner.attempt('support@example.com', 'demo')).status).toBe(303);
  });

  it('delays an address that fails across many accounts', async () => {
    const sprayer = new Browser(t.baseUrl, '203.0.113.77');
    for (let i = 0; i <= ADDRESS_POLICY.free; i++) {
      expect((await sprayer.attempt(`niemand-${i}@example.com`, 'Sommer2026!')).status).toBe(401);
    }
    expect((await sprayer.attempt('betrieb@example.com', 'demo')).status).toBe(429);
    expect((await new Browser(t.baseUrl, '203.0.113.78').attempt('betrieb@example.com', 'demo')).status).toBe(303);
  });

  it('keeps the counts in PostgreSQL: a second API process sees the same delay', async () => {
    const second = await startSecondRuntime(t);
    try {
      const first = new Browser(t.baseUrl, '203.0.113.150');
      for (let i = 0; i <= PAIR_POLICY.free; i++) await first.attempt('einkauf2@example.com', 'falsch');
      const other = new Browser(second.baseUrl, '203.0.113.150');
      expect((await other.attempt('einkauf2@example.com', 'demo')).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
