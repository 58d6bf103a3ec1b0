/** SQL of the search's word list (search_terms) for suggestions while typing. */
import type pg from 'pg';

/**
 * Words that start with `last` (folded), then — when `infix` — words that contain it, most frequent first; kind 5
 * (not suggested) left out.
 */
export async function termsStartingWith(pool: pg.Pool, last: string, limit: number, infix: boolean) {
  const { rows } = await pool.query<{ term: string; kind: number; doc_count: number }>(
    `(SELECT term, kind, doc_count, 0 AS pos FROM search_terms WHERE kind <> 5 AND folded LIKE $1 ORDER BY doc_count DESC, term LIMIT $3)
     UNION ALL
     (SELECT term, kind, doc_count, 1 FROM search_terms WHERE kind <> 5 AND $4 AND folded LIKE $2 AND folded NOT LIKE $1 ORDER BY doc_count DESC, term LIMIT $3)
     ORDER BY pos, doc_count DESC, term LIMIT $3`,
    [`${last}%`, `%${last}%`, limit, infix],
  );
  return rows;
}
