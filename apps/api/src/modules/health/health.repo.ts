import type { Queryable } from '../../db/queryable.ts';

/** The trivial statement readiness runs (throws when the database does not answer). */
export async function selectOne(pool: Queryable): Promise<void> {
  await pool.query('SELECT 1');
}
