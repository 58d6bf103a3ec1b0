/**
 * The auth hook's caller cache (http/caller-cache.ts, migration 0195): a repeat caller costs no statement, and
 * every change that decides what a token may do reaches a second API process on the same database at once
 * through NOTIFY auth_changes; without its LISTEN connection a process reads per request again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@shk/contracts';
import type { Runtime } from '../../src/runtime.ts';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';
import { changeAndAwaitNotifications, listenerPids } from '../support/notifications.ts';
import { recordStatements, type StatementRecorder } from '../support/statements.ts';

const AUTH_READS = /FROM users u LEFT JOIN user_business_partners|FROM revoked_grants|FROM ids_contexts/;
const BUYER = '00000000-0000-4000-8000-000000000001';

let t: TestApp;
let second: Runtime & { baseUrl: string };
/** Statements the second process sent since the last reset. */
let statements: StatementRecorder;

beforeAll(async () => {
  t = await startTestApp();
  second = await startSecondRuntime(t);
  statements = recordStatements(second.pool);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function onSecond(url: string, token: string) {
  statements.clear();
  // Over HTTP, as the next request of a browser reaches it.
  const response = await fetch(`${second.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.json();
  return { status: response.status, body, authReads: statements.texts.filter((s) => AUTH_READS.test(s)) };
}

/** Runs a change on the database and waits until both processes' listeners have its notification. */
const change = (sql: string, params: unknown[]) =>
  changeAndAwaitNotifications(
    t.pool,
    [() => t.app.callerCache.notifications, () => second.app.callerCache.notifications],
    sql,
    params,
  );
const listeners = () => listenerPids(t.pool, 'auth_changes');

describe('caller cache', () => {
  it('reads grant and caller once per token; a repeat caller costs no statement of the auth hook', async () => {
    const token = await t.token('einkauf@example.com');
    const first = await onSecond('/v1/UserProfile', token);
    expect(first.status).toBe(200);
    expect(first.authReads.length).toBeGreaterThan(0);
    const again = await onSecond('/v1/UserProfile', token);
    expect(again.status).toBe(200);
    expect(again.body.role).toBe(Role.Buyer);
    expect(again.authReads).toEqual([]);
  });

  it('other changing requests keep the entry (a search or a new cart is no change of the caller)', async () => {
    const token = await t.token('einkauf@example.com');
    await onSecond('/v1/UserProfile', token);
    const created = await fetch(`${second.baseUrl}/v1/MultiCarts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Zwischendurch' }),
    });
    expect(created.status).toBeLessThan(300);
    expect((await onSecond('/v1/UserProfile', token)).authReads).toEqual([]);
  });

  it('a role change on the database takes effect at once on both processes', async () => {
    const token = await t.token('einkauf@example.com');
    expect((await onSecond('/v1/MultiCarts', token)).status).toBe(200);
    expect((await t.request('GET', '/v1/MultiCarts', { token })).status).toBe(200);
    await change('UPDATE users SET role = $2 WHERE id = $1', [BUYER, Role.None]);
    try {
      const profile = await onSecond('/v1/UserProfile', token);
      expect(profile.body.role).toBe(Role.None);
      expect((await onSecond('/v1/MultiCarts', token)).status).toBe(403);
      expect((await t.request('GET', '/v1/MultiCarts', { token })).status).toBe(403);
    } finally {
      await change('UPDATE users SET role = $2 WHERE id = $1', [BUYER, Role.Buyer]);
    }
    expect((await onSecond('/v1/MultiCarts', token)).status).toBe(200);
  });

  it('a removed partner membership takes effect at once', async () => {
    const token = await t.token('einkauf@example.com');
    await change('UPDATE users SET current_bp_number = $2 WHERE id = $1', [BUYER, '100001']);
    expect((await onSecond('/v1/UserProfile', token)).body.currentBpNumber).toBe('100001');
    expect((await onSecond('/v1/UserProfile', token)).authReads).toEqual([]);
    await change(`DELETE FROM user_business_partners WHERE user_id = $1 AND bp_number = '100001'`, [BUYER]);
    try {
      const profile = await onSecond('/v1/UserProfile', token);
      expect(profile.body.currentBpNumber).toBe('100002');
      expect(profile.body.availableBusinessPartners.map((p: { number: string }) => p.number)).toEqual(['100002']);
    } finally {
      await change(`INSERT INTO user_business_partners (user_id, bp_number) VALUES ($1, '100001')`, [BUYER]);
    }
    expect((await onSecond('/v1/UserProfile', token)).body.availableBusinessPartners).toHaveLength(2);
  });

  it('without its LISTEN connection a process reads per request, and it connects again', async () => {
    const token = await t.token('einkauf@example.com');
    await onSecond('/v1/UserProfile', token);
    expect((await onSecond('/v1/UserProfile', token)).authReads).toEqual([]);
    const before = await listeners();
    expect(before).toHaveLength(2);
    await t.pool.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
    await eventually(async () => !t.app.callerCache.connected && !second.app.callerCache.connected, 5_000);
    // A change no process is told about is still seen, then and after the listener is back: the entries went
    // with the connection.
    await t.pool.query('UPDATE users SET role = $2 WHERE id = $1', [BUYER, Role.None]);
    try {
      const profile = await onSecond('/v1/UserProfile', token);
      expect(profile.body.role).toBe(Role.None);
      expect(profile.authReads.length).toBeGreaterThan(0);
      await eventually(async () => second.app.callerCache.connected && (await listeners()).length === 2, 10_000);
      expect((await onSecond('/v1/UserProfile', token)).body.role).toBe(Role.None);
    } finally {
      await change('UPDATE users SET role = $2 WHERE id = $1', [BUYER, Role.Buyer]);
    }
    expect((await onSecond('/v1/UserProfile', token)).body.role).toBe(Role.Buyer);
    const cached = await onSecond('/v1/UserProfile', token);
    expect(cached.body.role).toBe(Role.Buyer);
    expect(cached.authReads).toEqual([]);
  });
});
