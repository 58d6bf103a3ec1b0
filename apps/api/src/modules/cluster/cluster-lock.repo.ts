import type pg from 'pg';

/**
 * Runs `work` only if no other process of the installation runs the same `name` right now (a session advisory lock
 * on a connection of its own, released after the work or with the connection when the process dies). Returns false
 * without running it when another node holds the lock.
 */
export async function runExclusively(pool: pg.Pool, name: string, work: () => Promise<void>): Promise<boolean> {
  const lock = await pool.connect();
  try {
    const { rows } = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
      `cluster:${name}`,
    ]);
    if (!rows[0].ok) return false;
    try {
      await work();
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`cluster:${name}`]);
    }
    return true;
  } finally {
    lock.release();
  }
}
