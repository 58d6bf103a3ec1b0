import type pg from 'pg';
import { clientOutsidePool } from '../../db/pool.ts';

/** A session advisory lock's key: a name (the server hashes it) or PostgreSQL's pair of ints. */
export type SessionLockKey = string | readonly [number, number];

/** Runs work while this process holds one key; false (work not run) when another process holds it. */
export type LockSession = (key: SessionLockKey, work: () => Promise<void>) => Promise<boolean>;

/**
 * Opens a connection of its own for session advisory locks — a `pg.Client` outside the API's pool, like a LISTEN
 * connection (db/listen.ts) — hands `use` a function that runs work under one key at a time, and closes it after.
 *
 * Why not a pool connection: the work under the lock queries through the pool, so the lock would hold one of the
 * pool's connections while waiting for another. On a pool of one that wait only ended by the connect timeout, and
 * every request meanwhile waited too (the mail sweeper did this every 15 s; docs/architecture.md, "Database access").
 * The lock session runs nothing but the lock statements, so it never keeps a request from a connection.
 *
 * Session locks are re-entrant within one session: `use` takes one key at a time (nested calls on the same session
 * would both get the lock). The server drops the locks with the session when the process dies; a lost lock
 * connection is only logged (db/pool.ts) — the work goes on, and the next run opens a new session.
 */
export async function withLockSession<T>(
  pool: pg.Pool,
  label: string,
  use: (exclusively: LockSession) => Promise<T>,
): Promise<T> {
  const client = await connectLockSession(pool, label);
  try {
    return await use(async (key, work) => {
      const [lock, unlock, params] = lockStatements(key);
      const { rows } = await client.query<{ ok: boolean }>(`SELECT ${lock} AS ok`, params);
      if (!rows[0].ok) return false;
      try {
        await work();
      } finally {
        await client.query(`SELECT ${unlock}`, params);
      }
      return true;
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `work` only if no other process of the installation runs the same `name` right now (a session advisory lock
 * on a lock connection of its own, see withLockSession). Returns false without running it when another node holds
 * the lock.
 */
export async function runExclusively(pool: pg.Pool, name: string, work: () => Promise<void>): Promise<boolean> {
  return withLockSession(pool, name, (exclusively) => exclusively(`cluster:${name}`, work));
}

async function connectLockSession(pool: pg.Pool, label: string): Promise<pg.Client> {
  // Named in pg_stat_activity: an idle 'lock …' session is a lock holder.
  const client = clientOutsidePool(pool, `lock ${label}`);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

function lockStatements(key: SessionLockKey): [lock: string, unlock: string, params: unknown[]] {
  if (typeof key === 'string') return ['pg_try_advisory_lock(hashtext($1))', 'pg_advisory_unlock(hashtext($1))', [key]];
  return ['pg_try_advisory_lock($1::int, $2::int)', 'pg_advisory_unlock($1::int, $2::int)', [...key]];
}
