import type { Queryable } from '../../db/queryable.ts';

/** Readiness: the database answers a trivial statement (throws when it does not). */
export async function checkDatabase(pool: Queryable): Promise<void> {
  await pool.query('SELECT 1');
}
