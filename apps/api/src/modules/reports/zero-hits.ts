import type { Queryable } from '../../db/queryable.ts';
import { insertZeroHitSearch } from './reports.repo.ts';

/**
 * Records a product search without hits for the report 'Suchbegriffe ohne Treffer'. Fire and forget:
 * the search answer never waits for or fails because of the log.
 */
export function logZeroHitSearch(
  pool: Queryable,
  result: { hitCount: number; searchTerm: string; filterUsed?: unknown[] },
  caller: { userId?: string | null; bpNumber?: string | null },
  log?: { warn: (obj: object, msg: string) => void },
) {
  const term = result.searchTerm?.trim();
  if (result.hitCount > 0 || !term) return;
  // The filters as the search normalised them (filterUsed), so the report shows what was asked.
  insertZeroHitSearch(pool, {
    term: term.slice(0, 200),
    userId: caller.userId ?? null,
    bpNumber: caller.bpNumber ?? null,
    filters: result.filterUsed ?? [],
  }).catch((err) => log?.warn({ err }, 'zero-hit search not logged'));
}
