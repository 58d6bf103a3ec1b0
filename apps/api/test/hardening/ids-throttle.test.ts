import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { ADDRESS_POLICY, PAIR_POLICY } from '../../src/modules/identity/login-throttle.ts';

/**
 * The IDS entry (POST /ids) counts failed logins like the portal's sign-in (identity/login-throttle.ts, in
 * PostgreSQL): per account (customer number + user name) and client address, and per client address; beyond the
 * free failures the next attempt waits, answered with a German page, not JSON. Successful logins never count.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

async function entry(fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${t.baseUrl}/ids`, { method: 'POST', body: form, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text(), res };
}

const call = { action: 'wke', version: '2.5' };

describe('IDS login throttle', () => {
  it('delays an account at an address after repeated failures, even for the right password, with a German page', async () => {
    const account = { kndnr: '100001', name_kunde: 'einkauf@example.com' };
    // Successful logins (craftsman software signs in for every transfer) never count.
    for (let i = 0; i < 12; i++) {
      expect((await entry({ ...account, pw_kunde: 'demo', ...call })).location).toMatch(/^\/ids\?/);
    }
    for (let i = 0; i <= PAIR_POLICY.free; i++) {
      const wrong = await entry({ ...account, pw_kunde: `falsch-${i}`, ...call });
      expect(wrong.status, `attempt ${i}`).toBe(303);
      expect(wrong.location).toBe('/unauthorized');
    }
    const locked = await entry({ ...account, pw_kunde: 'demo', ...call });
    expect(locked.status).toBe(429);
    expect(locked.res.headers.get('content-type')).toContain('text/html');
    expect(Number(locked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.text).toContain('lang="de"');
    expect(locked.text).toContain('Zu viele fehlgeschlagene Anmeldeversuche');
  });

  it('limits failed logins from one address across accounts', async () => {
    // The previous test already failed PAIR_POLICY.free + 1 times from this address (127.0.0.1).
    for (let i = 0; i < ADDRESS_POLICY.free - PAIR_POLICY.free; i++) {
      const wrong = await entry({ kndnr: `9${String(i).padStart(5, '0')}`, name_kunde: 'x', pw_kunde: 'y', ...call });
      expect(wrong.status, `attempt ${i}`).toBe(303);
    }
    // A different, valid account from the same address is refused while the address is locked.
    const other = await entry({ kndnr: '100003', name_kunde: 'becker', pw_kunde: 'irrelevant', ...call });
    expect(other.status).toBe(429);
    expect(other.text).toContain('Zu viele fehlgeschlagene Anmeldeversuche');
  });
});
