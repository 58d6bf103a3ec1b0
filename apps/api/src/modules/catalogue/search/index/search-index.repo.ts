/** The SQL of the in-process search index: reading product_search, the change feed, query normalisation. */
import type pg from 'pg';

/** One row of product_search as the index needs it (vec as tsvector text, f = slots f1…f8). */
export interface SearchRow {
  id: number;
  rank: number;
  name_rank: number | null;
  vec: string;
  brand_no: number;
  class_no: number | null;
  leaf_no: number;
  promo: boolean;
  supplier_nos: number[];
  price_cents: number | null;
  f: (number | null)[];
}

const SEARCH_ROW_COLUMNS = `s.id, s.rank, s.name_rank, s.vec::text AS vec, s.brand_no, s.class_no, s.leaf_no, s.promo,
  s.supplier_nos, s.price_cents, ARRAY[s.f1, s.f2, s.f3, s.f4, s.f5, s.f6, s.f7, s.f8] AS f`;

/** The next batch of search rows after an id (keyset pagination). */
export async function searchRowsAfter(pool: pg.Pool, after: number, limit: number): Promise<SearchRow[]> {
  const { rows } = await pool.query<SearchRow>(
    `SELECT ${SEARCH_ROW_COLUMNS} FROM product_search s WHERE s.id > $1 ORDER BY s.id LIMIT ${Number(limit)}`,
    [after],
  );
  return rows;
}

/** The search rows of some products (those without a row are gone). */
export async function searchRowsOf(pool: pg.Pool, ids: number[]): Promise<SearchRow[]> {
  const { rows } = await pool.query<SearchRow>(
    `SELECT ${SEARCH_ROW_COLUMNS} FROM product_search s WHERE s.id = ANY($1::int[])`,
    [ids],
  );
  return rows;
}

/** The newest change-feed position (0 while the feed table is empty or missing). */
export async function currentFeedPosition(pool: pg.Pool): Promise<number> {
  const { rows: exists } = await pool.query<{ t: string | null }>(`SELECT to_regclass('search_changes')::text AS t`);
  if (!exists[0]?.t) return 0;
  const { rows } = await pool.query<{ seq: string | null }>('SELECT max(seq)::text AS seq FROM search_changes');
  return Number(rows[0]?.seq ?? 0);
}

/**
 * Postgres' own normalisation of query texts (German stemming and stop words of german_unaccent,
 * the same as for the documents): tsquery texts and phrase texts, in one round trip.
 */
export async function normaliseQueryTexts(
  pool: pg.Pool,
  texts: string[],
  phrases: string[],
): Promise<{ queries: string[]; phrases: string[] }> {
  const { rows } = await pool.query<{ q: string[]; ph: string[] }>(
    `SELECT ARRAY(SELECT to_tsquery('german_unaccent', t)::text FROM unnest($1::text[]) WITH ORDINALITY u(t, o) ORDER BY o) AS q,
            ARRAY(SELECT phraseto_tsquery('german_unaccent', t)::text FROM unnest($2::text[]) WITH ORDINALITY u(t, o) ORDER BY o) AS ph`,
    [texts, phrases],
  );
  return { queries: rows[0].q, phrases: rows[0].ph };
}

/** The candidates that contain the phrase (word positions are only held by Postgres). */
export async function productsWithPhrase(pool: pg.Pool, ids: number[], phrase: string): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM product_search WHERE id = ANY($1::int[]) AND vec @@ phraseto_tsquery('german_unaccent', $2)`,
    [ids, phrase],
  );
  return rows.map((r) => r.id);
}
