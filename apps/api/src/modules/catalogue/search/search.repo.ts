/**
 * SQL of the search: the word list (search_terms) for suggestions while typing and for the query analyser (typo
 * alternatives, article numbers), the facet counts and the result pages over product_search. The WHERE clauses are
 * built by facets.ts (`scopeWhere`, parameters in `SqlParams`) and handed in with their parameters.
 */
import type pg from 'pg';
import type { SqlParams, SqlWhere } from '../../../db/sql-params.ts';

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

/** Catalogue words similar to `word` (trigram similarity at least `similarity`), most similar and frequent first. */
export async function similarTerms(pool: pg.Pool, word: string, similarity: number, limit: number) {
  const { rows } = await pool.query<{ folded: string }>(
    `SELECT folded FROM search_terms WHERE folded % $1 AND similarity(folded, $1) >= $2
      ORDER BY similarity(folded, $1) DESC, doc_count DESC LIMIT $3`,
    [word, similarity, limit],
  );
  return rows;
}

/** Display spellings of folded catalogue words. */
export async function termSpellings(pool: pg.Pool, folded: string[]) {
  const { rows } = await pool.query<{ folded: string; term: string }>(
    `SELECT folded, term FROM search_terms WHERE folded = ANY($1::text[])`,
    [folded],
  );
  return rows;
}

/**
 * Candidates one edit away from each of `words` through the deletion index of migration 0110 (confirmed by the
 * caller), most frequent first per word.
 */
export async function oneEditCandidates(pool: pg.Pool, words: string[]) {
  const { rows } = await pool.query<{ word: string; folded: string }>(
    `${oneEditCandidatesOf('$1::text[]')} ORDER BY q.word, t.doc_count DESC, t.folded`,
    [words],
  );
  return rows;
}

/**
 * The one-edit candidates (q.word, t.folded, t.term, t.doc_count) of each word of the text array `words` (a parameter)
 * through the deletion index of migration 0110: the statement of oneEditCandidates and of the index engine's batched
 * word lookups (index/search-index.repo.ts).
 */
export const oneEditCandidatesOf = (words: string) => `SELECT q.word, t.folded, t.term, t.doc_count
       FROM unnest(${words}) AS q(word)
       CROSS JOIN LATERAL (
         SELECT folded, term, doc_count FROM search_terms
          WHERE deletes && (search_term_deletes(q.word) || q.word) OR folded = ANY(search_term_deletes(q.word))
       ) t
      -- Inflections with the word's own stem ('kupferrohre' for 'kupferrohr') add nothing.
      WHERE plainto_tsquery('german_unaccent', t.folded)::text <> plainto_tsquery('german_unaccent', q.word)::text`;

/**
 * Hyphenated catalogue words with a part one edit away from one of the `spellings` of a word ('brennwert-kombitherme'
 * for 'kombitehrme') through
 * the part deletion index of migration 0530 (the part is picked and confirmed by the caller), most frequent first.
 */
export async function partEditCandidates(pool: pg.Pool, spellings: string[], limit: number) {
  const { rows } = await pool.query<{ term: string; folded: string; doc_count: number }>(
    `SELECT term, folded, doc_count FROM search_terms
      WHERE part_deletes && (SELECT array_agg(d) FROM unnest($1::text[]) w, unnest(search_term_deletes(w) || w) d)
      ORDER BY doc_count DESC, folded LIMIT $2`,
    [spellings, limit],
  );
  return rows;
}

/** Per tsquery text (ord 1…): whether it is empty after stemming and whether any search row matches it. */
export async function tsqueryMatches(pool: pg.Pool, queries: string[]) {
  const { rows } = await pool.query<{ ord: number; empty: boolean; found: boolean }>(
    `SELECT q.ord, numnode(q.tsq) = 0 AS empty,
            numnode(q.tsq) > 0 AND EXISTS (SELECT 1 FROM product_search s WHERE s.vec @@ q.tsq) AS found
       FROM (SELECT ord, to_tsquery('german_unaccent', text) AS tsq FROM unnest($1::text[]) WITH ORDINALITY AS u(text, ord)) q`,
    [queries],
  );
  return rows;
}

/** Exact matches of GTIN, manufacturer, supplier and catalogue article numbers, per code. */
export async function codeMatches(pool: pg.Pool, codes: string[]) {
  const { rows } = await pool.query<{ code: string; id: number }>(codeMatchesOf('unnest($1::text[]) c(code)'), [codes]);
  return rows;
}

/**
 * The products (code, id) whose GTIN, manufacturer, catalogue or supplier article number equals a code of `codes` (a
 * FROM item naming its column c.code), the first 2,000 by id: the statement of codeMatches and of the index engine's
 * batched lookups, one per search (index/search-index.repo.ts).
 */
export const codeMatchesOf = (codes: string) => `SELECT code, id FROM (
       SELECT c.code, p.id FROM ${codes} JOIN products p ON p.gtin = c.code
       UNION SELECT c.code, p.id FROM ${codes} JOIN products p ON p.manufacturer_pid_norm = c.code
       UNION SELECT c.code, p.id FROM ${codes} JOIN products p ON p.article_number_catalogue_norm = c.code
       UNION SELECT c.code, o.product_no FROM ${codes} JOIN product_offers o ON o.supplier_pid_norm = c.code
     ) m ORDER BY id LIMIT 2000`;

/** Products whose article numbers are `code`, and with `prefix` those starting with it (`pattern`). */
export async function idsByCode(pool: pg.Pool, code: string, pattern: string, prefix: boolean) {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM (
       SELECT id FROM products WHERE gtin = $1 OR manufacturer_pid_norm = $1 OR article_number_catalogue_norm = $1
       UNION SELECT product_no FROM product_offers WHERE supplier_pid_norm = $1
       ${
         prefix
           ? `UNION (SELECT id FROM products WHERE manufacturer_pid_norm LIKE $2 OR gtin LIKE $2 OR article_number_catalogue_norm LIKE $2 LIMIT 2000)
       UNION (SELECT product_no FROM product_offers WHERE supplier_pid_norm LIKE $2 LIMIT 2000)`
           : ''
       }
     ) c ORDER BY id LIMIT 2000`,
    prefix ? [code, pattern] : [code],
  );
  return rows;
}

/**
 * Facet counts of the search rows matching `where` (built by facets.ts with `params`): one pass with grouping sets for
 * brand/class/leaf/totals and the price range (product_search_prices), one unnest pass for the supplier arrays.
 */
export async function facetSetRows(pool: pg.Pool, where: string, params: unknown[]) {
  const { rows } = await pool.query<{
    g: number;
    brand_no: number | null;
    class_no: number | null;
    leaf_no: number | null;
    n: number;
    promo: number | null;
    lo: number | null;
    hi: number | null;
  }>(
    `
    WITH m AS MATERIALIZED (
      SELECT s.brand_no, s.class_no, s.leaf_no, s.promo, s.supplier_nos, sp.price_cents
        FROM product_search s LEFT JOIN product_search_prices sp ON sp.id = s.id WHERE ${where}
    )
    SELECT GROUPING(brand_no, class_no, leaf_no) AS g, brand_no, class_no, leaf_no, count(*)::int AS n,
           count(*) FILTER (WHERE promo)::int AS promo, min(price_cents) AS lo, max(price_cents) AS hi
      FROM m GROUP BY GROUPING SETS ((brand_no), (class_no), (leaf_no), ())
    UNION ALL
    SELECT -1, u, NULL, NULL, count(*)::int, NULL, NULL, NULL FROM (SELECT unnest(supplier_nos) AS u FROM m) x GROUP BY u`,
    params,
  );
  return rows;
}

/**
 * Feature value counts ('a': per alphanumeric value) and numeric ranges ('n') of the class `classNo` in the search rows
 * matching `where`; `p` holds the parameters of `where` and gets the class and the slot lists.
 */
export async function featureStatRows(
  pool: pg.Pool,
  where: string,
  p: SqlParams,
  classNo: number,
  slots: number[],
  alphanumericSlots: number[],
  numericSlots: number[],
) {
  const classParam = p.add(classNo);
  const lateral = slots.map((s) => `(${s}, m.f${s})`).join(', ');
  const { rows } = await pool.query<{ kind: string; slot: number; v: number | null; n: number; x: number | null }>(
    `
    WITH m AS MATERIALIZED (
      SELECT ${slots.map((s) => `s.f${s}`).join(', ')} FROM product_search s WHERE ${where} AND s.class_no = ${classParam}
    )
    SELECT 'a' AS kind, v.slot, v.val::float8 AS v, count(*)::int AS n, NULL::float8 AS x
      FROM m, LATERAL (VALUES ${lateral}) v(slot, val)
     WHERE v.slot = ANY(${p.add(alphanumericSlots)}::int[]) AND v.val IS NOT NULL
     GROUP BY v.slot, v.val
    UNION ALL
    SELECT 'n', v.slot, min(v.val)::float8, count(*)::int, max(v.val)::float8
      FROM m, LATERAL (VALUES ${lateral}) v(slot, val)
     WHERE v.slot = ANY(${p.add(numericSlots)}::int[]) AND v.val IS NOT NULL
     GROUP BY v.slot`,
    p.values,
  );
  return rows;
}

/** The first four search rows matching `where` (suggestions' product hits), by rank. */
export async function topSearchIds(pool: pg.Pool, where: string, params: unknown[]) {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT s.id FROM product_search s WHERE ${where} ORDER BY s.rank LIMIT 4`,
    params,
  );
  return rows;
}

/** `limit` search rows matching `where` from `offset` on, in the order `order`. */
export async function searchIds(pool: pg.Pool, where: SqlWhere, order: string, offset: number, limit: number) {
  const page = where.slice(offset, limit);
  const { rows } = await pool.query<{ id: number }>(
    `SELECT s.id FROM product_search s WHERE ${where.conditionSql} ORDER BY ${order} ${page.sql}`,
    page.values,
  );
  return rows;
}

/** The number of search rows matching `where`. */
export async function countSearchRows(pool: pg.Pool, where: SqlWhere): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM product_search s WHERE ${where.conditionSql}`,
    where.values,
  );
  return rows[0].n;
}
