import type pg from 'pg';

/**
 * Records a product search without hits for the report 'Suchbegriffe ohne Treffer'. Fire and forget:
 * the search answer never waits for or fails because of the log.
 */
export function logZeroHitSearch(
  pool: pg.Pool,
  result: { hitCount: number; searchTerm: string; filterUsed?: unknown[] },
  caller: { userId?: string | null; bpNumber?: string | null },
  log?: { warn: (obj: object, msg: string) => void },
) {
  const term = result.searchTerm?.trim();
  if (result.hitCount > 0 || !term) return;
  // The filters as the search normalised them (filterUsed), so the report shows what was asked.
  pool
    .query('INSERT INTO search_zero_hits (term, user_id, bp_number, filters) VALUES ($1, $2, $3, $4)', [
      term.slice(0, 200),
      caller.userId ?? null,
      caller.bpNumber ?? null,
      JSON.stringify(result.filterUsed ?? []),
    ])
    .catch((err) => log?.warn({ err }, 'zero-hit search not logged'));
}
