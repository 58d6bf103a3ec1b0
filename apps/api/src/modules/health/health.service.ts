import type { Queryable } from '../../db/queryable.ts';
import { selectOne } from './health.repo.ts';

/** Readiness: the database answers a trivial statement (throws when it does not). */
export async function checkDatabase(pool: Queryable): Promise<void> {
  await selectOne(pool);
}
