import type pg from 'pg';

/**
 * Records a product search without hits for the report 'Suchbegriffe ohne Treffer'. Fire and forget:
 * the search answer never waits for or fails because of the log.
 */
export function logZeroHitSearch(
  pool: pg.Pool,
  result: { hitCount: number; searchTerm: string },
  caller: { userId?: string | null; bpNumber?: string | null },
  log?: { warn: (obj: object, msg: string) => void },
) {
  const term = result.searchTerm?.trim();
  if (result.hitCount > 0 || !term) return;
  pool
    .query('INSERT INTO search_zero_hits (term, user_id, bp_number) VALUES ($1, $2, $3)', [
      term.slice(0, 200),
      caller.userId ?? null,
      caller.bpNumber ?? null,
    ])
    .catch((err) => log?.warn({ err }, 'zero-hit search not logged'));
}
