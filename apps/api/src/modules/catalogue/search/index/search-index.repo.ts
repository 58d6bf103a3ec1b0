/** The SQL of the in-process search index: reading product_search, the change feed, query normalisation. */
import type pg from 'pg';
import { codeMatchesOf, oneEditCandidatesOf } from '../search.repo.ts';

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

/** Columns of a search row `s`; its lowest price from product_search_prices `sp` (migration 0205). */
const SEARCH_ROW_COLUMNS = `s.id, s.rank, s.name_rank, s.vec::text AS vec, s.brand_no, s.class_no, s.leaf_no, s.promo,
  s.supplier_nos, sp.price_cents, ARRAY[s.f1, s.f2, s.f3, s.f4, s.f5, s.f6, s.f7, s.f8] AS f`;
const SEARCH_ROWS = 'product_search s LEFT JOIN product_search_prices sp ON sp.id = s.id';

/** The search rows with ids in [from, to] (any order). */
export async function searchRowsBetween(pool: pg.Pool, from: number, to: number): Promise<SearchRow[]> {
  const { rows } = await pool.query<SearchRow>(
    // The range on both sides: Postgres carries equalities across a join, not ranges (else each range reads every price).
    `SELECT ${SEARCH_ROW_COLUMNS}
       FROM product_search s LEFT JOIN product_search_prices sp ON sp.id = s.id AND sp.id BETWEEN $1 AND $2
      WHERE s.id BETWEEN $1 AND $2`,
    [from, to],
  );
  return rows;
}

export async function maxSearchId(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ max: number | null }>('SELECT max(id) AS max FROM product_search');
  return rows[0].max ?? 0;
}

/** The search rows of some products (those without a row are gone). */
export async function searchRowsOf(pool: pg.Pool, ids: number[]): Promise<SearchRow[]> {
  const { rows } = await pool.query<SearchRow>(
    `SELECT ${SEARCH_ROW_COLUMNS} FROM ${SEARCH_ROWS} WHERE s.id = ANY($1::int[])`,
    [ids],
  );
  return rows;
}

/**
 * The change-feed horizon: the oldest running transaction id (pg_snapshot_xmin). Every transaction
 * below it has ended, so its feed rows are final; later ones are read on the next round.
 */
export async function feedHorizon(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ x: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x');
  return rows[0].x;
}

/** The transaction id the next transaction gets (pg_snapshot_xmax): every one begun so far is below it. */
export async function feedNext(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x');
  return rows[0].x;
}

/** Products changed by the transactions in [from, to) (xid8 as text). */
export async function changedProducts(pool: pg.Pool, from: string, to: string): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>(
    // A row holds a statement's products (product_ids, migration 0225); rows written before it one product each.
    `SELECT DISTINCT unnest(COALESCE(product_ids, ARRAY[product_id])) AS id
       FROM search_changes WHERE xid >= $1::xid8 AND xid < $2::xid8`,
    [from, to],
  );
  return rows.map((r) => r.id);
}

/** Feed rows older than a day are not needed by any follower (a process that starts builds anew). */
export async function pruneSearchChanges(pool: pg.Pool): Promise<void> {
  await pool.query(`DELETE FROM search_changes WHERE changed_at < now() - interval '1 day'`);
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

/** The newest feed row (its seq and transaction) – proves a snapshot belongs to this database's feed. */
export async function latestFeedRow(pool: pg.Pool): Promise<{ seq: string; xid: string } | null> {
  const { rows } = await pool.query<{ seq: string; xid: string }>(
    'SELECT seq::text, xid::text FROM search_changes ORDER BY seq DESC LIMIT 1',
  );
  return rows[0] ?? null;
}

export async function feedRowExists(pool: pg.Pool, row: { seq: string; xid: string }): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM search_changes WHERE seq = $1::bigint AND xid = $2::xid8', [
    row.seq,
    row.xid,
  ]);
  return rows.length > 0;
}

export async function searchRowCount(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM product_search');
  return rows[0].n;
}

/** The answers of one word-lookup statement (wordLookups). */
export interface WordLookupRows {
  /** to_tsquery('german_unaccent', word)::text of each word to normalise, in order. */
  queries: string[];
  /**
   * The one-edit candidates of the neighbour words (as oneEditCandidates: per word the most frequent first), with the
   * catalogue's spelling of each (search_terms.term, as termSpellings reads it).
   */
  candidates: { word: string; folded: string; term: string }[];
  /** to_tsquery('german_unaccent', token)::text of each [a-z0-9]+ token of the candidates (for the tiers' texts). */
  candidateTokens: { token: string; query: string }[];
  /** The article-number matches of each group of codes (as codeMatches of the group: ordered by id, at most 2,000). */
  codes: { group: number; code: string; id: number }[];
}

/**
 * A search's dictionary lookups in one round trip: Postgres' normalisation of new words (to_tsquery of each word
 * alone, see word-normaliser.ts), the catalogue words one edit away from new words (the statement of
 * oneEditCandidates, search_terms' deletion index of migration 0110) and the normalisation of those candidates'
 * tokens, which the tiers' texts need next. Each part is the same SQL as its statement of its own.
 */
export async function wordLookups(
  pool: pg.Pool,
  normalise: string[],
  neighbours: string[],
  codeGroups: string[][],
): Promise<WordLookupRows> {
  const { rows } = await pool.query<{
    q: string[];
    w: string[] | null;
    f: string[] | null;
    t: string[] | null;
    tt: string[] | null;
    tq: string[] | null;
    kg: number[] | null;
    kc: string[] | null;
    ki: number[] | null;
  }>(
    `WITH c AS (${oneEditCandidatesOf('$2::text[]')}), tokens AS (
       SELECT DISTINCT m[1] AS token FROM c, regexp_matches(c.folded, '[a-z0-9]+', 'g') m
        WHERE NOT m[1] = ANY($1::text[])
     ), codes AS (
       SELECT c.code, c.grp FROM unnest($3::text[], $4::int[]) AS c(code, grp)
     ), k AS (
       -- Each group is one search's codes, with the limit of its own statement (search.repo.ts codeMatches).
       SELECT g.grp, m.code, m.id
         FROM (SELECT DISTINCT grp FROM codes) g
         CROSS JOIN LATERAL (${codeMatchesOf('(SELECT code FROM codes WHERE codes.grp = g.grp) c')}) m
     )
     SELECT ARRAY(SELECT to_tsquery('german_unaccent', w)::text FROM unnest($1::text[]) WITH ORDINALITY u(w, o) ORDER BY o) AS q,
            (SELECT array_agg(word ORDER BY word, doc_count DESC, folded) FROM c) AS w,
            (SELECT array_agg(folded ORDER BY word, doc_count DESC, folded) FROM c) AS f,
            (SELECT array_agg(term ORDER BY word, doc_count DESC, folded) FROM c) AS t,
            (SELECT array_agg(token ORDER BY token) FROM tokens) AS tt,
            (SELECT array_agg(to_tsquery('german_unaccent', token)::text ORDER BY token) FROM tokens) AS tq,
            (SELECT array_agg(grp ORDER BY grp, id, code) FROM k) AS kg,
            (SELECT array_agg(code ORDER BY grp, id, code) FROM k) AS kc,
            (SELECT array_agg(id ORDER BY grp, id, code) FROM k) AS ki`,
    [normalise, neighbours, codeGroups.flat(), codeGroups.flatMap((codes, g) => codes.map(() => g))],
  );
  const { q, w, f, t, tt, tq, kg, kc, ki } = rows[0];
  return {
    queries: q,
    candidates: (w ?? []).map((word, k) => ({ word, folded: f![k], term: t![k] })),
    candidateTokens: (tt ?? []).map((token, k) => ({ token, query: tq![k] })),
    codes: (kg ?? []).map((group, k) => ({ group, code: kc![k], id: ki![k] })),
  };
}
