// The cluster lock holds its session advisory lock on a connection of its own: the work under it queries through the
// pool, and on a pool of one that once waited for the lock's own connection until the connect timeout ended the wait.
import crypto from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, hiddenWaitsOf } from '../../db/pool.ts';
import { runExclusively, withLockSession } from './cluster-lock.repo.ts';

let pool: pg.Pool;
let otherNode: pg.Pool;
const name = `lock-test-${crypto.randomBytes(4).toString('hex')}`;

beforeAll(() => {
  // As the one-connection route test runs the API: one connection, strict; a short timeout keeps a failure short.
  pool = createPool(inject('pgAdminUrl'), 1, { connectionTimeoutMillis: 3_000 }, { strictConnectionUse: true });
  otherNode = createPool(inject('pgAdminUrl'), 1);
});
afterAll(async () => {
  await pool?.end();
  await otherNode?.end();
});

const lockSessions = async (db: pg.Pool) =>
  (
    await db.query<{ application_name: string }>(
      "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'lock lock-test-%'",
    )
  ).rows.map((r) => r.application_name);

describe('runExclusively', () => {
  it('runs work that queries through a one-connection pool without waiting for the connection', async () => {
    let seen: string[] = [];
    const ran = await runExclusively(pool, name, async () => {
      seen = await lockSessions(pool);
    });
    expect(ran).toBe(true);
    // The lock was held on a session of its own, named in pg_stat_activity, while the work had the pool's connection.
    expect(seen).toEqual([`lock ${name}`]);
    expect(hiddenWaitsOf(pool)).toEqual([]);
    // The lock session is closed afterwards (the server removes the backend from pg_stat_activity as it exits).
    await vi.waitFor(async () => expect(await lockSessions(otherNode)).toEqual([]));
  });

  it('keeps a second node out while the first runs, and lets it in afterwards', async () => {
    let secondRan: boolean | undefined;
    await runExclusively(pool, name, async () => {
      secondRan = await runExclusively(otherNode, name, async () => undefined);
    });
    expect(secondRan).toBe(false);
    expect(await runExclusively(otherNode, name, async () => undefined)).toBe(true);
  });

  it('takes pairs of ints as keys, one at a time on one session, and releases each after its work', async () => {
    const key = [7305, crypto.randomInt(1_000_000, 2_000_000)] as const;
    const outcomes: boolean[] = [];
    await withLockSession(pool, name, async (exclusively) => {
      outcomes.push(
        await exclusively(key, async () => {
          outcomes.push(await withLockSession(otherNode, name, (other) => other(key, async () => undefined)));
        }),
      );
      outcomes.push(await withLockSession(otherNode, name, (other) => other(key, async () => undefined)));
    });
    expect(outcomes).toEqual([false, true, true]);
  });
});
