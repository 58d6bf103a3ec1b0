/**
 * Keeps the word list `search_terms` (suggestions while typing, typo neighbours) current with supplier imports,
 * so imported products are suggested and found despite typos. The catalogue load writes the list whole; an import changes it by the products whose search
 * rows it adds or removes, in the transaction that adds or removes them:
 *
 * - `tallyImportedTerms` + `applyImportedTerms`, when an import publishes its search rows (the import's last
 *   transaction): the words of the products that become searchable are counted in, words new to the list are added
 *   with their kind and count (also those of products that were searchable already and got a new name). The counting
 *   runs on the import's second session while its own session withdraws and publishes (two cores at work), the
 *   writing in the publishing transaction; `addImportedTerms` does both in one session (a failed import's publish).
 * - `lowerTermsOfWithdrawn`, where search rows are removed (a product's last offer withdrawn): their words are counted
 *   out; a word, brand or series no searchable product has any more leaves the list (a part word stays, as kind 5).
 *
 * Set-based: Postgres splits the names at spaces and groups the pieces that may be words (one pass over the changed
 * products), Node applies the catalogue load's word rules to the distinct pieces only (search/search-terms.ts), and the changes go
 * back as arrays in two statements. The catalogue version bump of the same transaction makes every process read the
 * new list (the index engine keeps typo neighbours per version). What is exact: see docs/catalogue-import.md.
 */
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { fold, PART_WORDS, TERM_KIND, TermTally, type TermDelta } from '../catalogue/index.ts';

/**
 * A name piece that can hold a word: three characters in a row that are ASCII letters or not ASCII (nameWords wants
 * three letters in a row). Tokens without (article numbers, sizes) are left out in Postgres, so only pieces that may
 * be words are grouped and sent to Node.
 */
const MAY_BE_WORD = '[^ -@[-`{-~]{3}';

/**
 * The grouped name pieces, brands and series of the products `products` (a query of `id` and `fresh`), one pass:
 * src 1 a piece of a name (split at spaces), 2 a brand, 4 a series; n occurrences, fresh those of products with
 * fresh = true.
 */
const sourcesOf = (products: string) => `
  SELECT w.src, w.word, count(*)::int AS n, count(*) FILTER (WHERE p.fresh)::int AS fresh
    FROM (${products}) p JOIN products pr ON pr.id = p.id
    LEFT JOIN brands b ON b.brand_no = pr.brand_no
    CROSS JOIN LATERAL (
      SELECT 1, t FROM string_to_table(pr.product_name, ' ') t WHERE t ~ '${MAY_BE_WORD}'
      UNION ALL VALUES (2, b.name), (4, pr.series)
    ) w(src, word)
   WHERE w.word <> ''
   GROUP BY w.src, w.word`;

async function tally(c: pg.ClientBase, products: string, params: unknown[]): Promise<TermDelta[]> {
  const { rows } = await c.query<{ src: number; word: string; n: number; fresh: number }>(sourcesOf(products), params);
  const t = new TermTally();
  for (const r of rows) {
    if (r.src === 1) t.addNamePart(r.word, r.n, r.fresh);
    else if (r.src === 2) t.addBrand(r.word, r.n, r.fresh);
    else t.addSeries(r.word, r.n, r.fresh);
  }
  return t.rows();
}

/** The words of an import's staged search rows, counted while the import's last steps run (tallyImportedTerms). */
export interface ImportedTermsTally {
  /** Resolves once the products that are searchable already have been read: from then on no lock on product_search. */
  ready: Promise<void>;
  rows: Promise<TermDelta[]>;
}

/**
 * Counts the words of the search rows import `importId` staged (its batches have committed them), on session `s`.
 * A product counts as new (fresh) when it has no search row yet; only those with an offer are counted (publishSearch
 * publishes no other). First the products searchable already (ids, read before publishSearch changes or locks
 * product_search: await `ready` first), then the grouping without product_search, so the import can run it on its
 * second session while its own session publishes the search rows, and apply the result in that transaction.
 * `inTransaction`: `s` is in a transaction of the caller (else the grouping gets one of its own, for its work_mem).
 */
export function tallyImportedTerms(
  s: pg.ClientBase,
  importId: number,
  options: { inTransaction: boolean },
): ImportedTermsTally {
  const searchable = (async () => {
    // The staged rows grew from nothing during the import: without statistics the planner takes them for one row and
    // joins a million products by nested loops (14 s against 7 s at 1,000,000 products, with the work_mem below).
    await s.query('ANALYZE catalogue_import_search (import_id, id)');
    const { rows } = await s.query<{ ids: number[] }>(
      `SELECT coalesce(array_agg(x.id), '{}') AS ids FROM catalogue_import_search x
        WHERE x.import_id = $1 AND EXISTS (SELECT 1 FROM product_search p WHERE p.id = x.id)`,
      [importId],
    );
    return rows[0].ids;
  })();
  const rows = searchable.then(async (ids) => {
    const count = async () => {
      // Hash joins of a million staged rows, products and offers in memory.
      await s.query(`SET LOCAL work_mem = '256MB'`);
      return tally(
        s,
        `SELECT x.id, old.id IS NULL AS fresh
           FROM catalogue_import_search x LEFT JOIN unnest($2::int[]) old(id) ON old.id = x.id
          WHERE x.import_id = $1 AND EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = x.id)`,
        [importId, ids],
      );
    };
    return options.inTransaction ? count() : inClientTransaction(s, count);
  });
  const ready = searchable.then(() => {});
  // Awaited by the import's last transaction, or dropped with the import when it fails before.
  ready.catch(() => {});
  rows.catch(() => {});
  return { ready, rows };
}

/**
 * Writes the counted words of an import (tallyImportedTerms) in the transaction that publishes its search rows:
 * words in the list are counted up by their new products, words new to the list are added with the count of all the
 * import's products that have them. Returns the words added.
 */
export async function applyImportedTerms(c: pg.ClientBase, rows: TermDelta[]): Promise<number> {
  if (!rows.length) return 0;
  const counted = rows.filter((r) => r.fresh > 0);
  // Words in the list: counted up; a part word (kind 5) found in a product name becomes a suggested word.
  if (counted.length)
    await c.query(
      `UPDATE search_terms t SET doc_count = t.doc_count + d.fresh, kind = CASE WHEN t.kind = ${TERM_KIND.part} THEN d.kind ELSE t.kind END
         FROM unnest($1::text[], $2::smallint[], $3::int[]) d(folded, kind, fresh)
        WHERE t.folded = d.folded`,
      [counted.map((r) => r.folded), counted.map((r) => r.kind), counted.map((r) => r.fresh)],
    );
  // Words new to the list, counted over all the published products that have them. An import of another supplier that
  // adds the same word meanwhile: the unique key on folded makes its count add up.
  const { rowCount } = await c.query(
    `INSERT INTO search_terms AS t (term, folded, kind, doc_count)
     SELECT d.term, d.folded, d.kind, d.n FROM unnest($1::text[], $2::text[], $3::smallint[], $4::int[]) d(term, folded, kind, n)
      WHERE NOT EXISTS (SELECT 1 FROM search_terms x WHERE x.folded = d.folded OR x.term = d.term)
     ON CONFLICT (folded) DO UPDATE SET doc_count = t.doc_count + EXCLUDED.doc_count`,
    [rows.map((r) => r.term), rows.map((r) => r.folded), rows.map((r) => r.kind), rows.map((r) => r.n)],
  );
  return rowCount ?? 0;
}

/** Both in the import's own session (a failed import publishes what its batches wrote): count, then write. */
export async function addImportedTerms(c: pg.ClientBase, importId: number): Promise<number> {
  return applyImportedTerms(c, await tallyImportedTerms(c, importId, { inTransaction: true }).rows);
}

let partKeys: Set<string> | null = null;

/**
 * Counts out the words of those of `productNos` that are about to lose their search rows: they have one and no offer
 * left (call right before refreshSearchOffers removes them, same transaction). A word, brand or series at zero leaves
 * the list, except a part word, which stays for the typo neighbours of compound parts (kind 5).
 */
export async function lowerTermsOfWithdrawn(c: pg.PoolClient, productNos: number[]): Promise<void> {
  if (!productNos.length) return;
  const rows = await tally(
    c,
    `SELECT s.id, true AS fresh FROM product_search s
      WHERE s.id = ANY($1::int[]) AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = s.id)`,
    [productNos],
  );
  if (!rows.length) return;
  const { rows: lowered } = await c.query<{ folded: string; doc_count: number }>(
    `UPDATE search_terms t SET doc_count = greatest(t.doc_count - d.n, 0)
       FROM unnest($1::text[], $2::int[]) d(folded, n)
      WHERE t.folded = d.folded AND t.kind IN (${TERM_KIND.word}, ${TERM_KIND.brand}, ${TERM_KIND.series})
      RETURNING t.folded, t.doc_count`,
    [rows.map((r) => r.folded), rows.map((r) => r.n)],
  );
  const emptied = lowered.filter((r) => r.doc_count === 0);
  if (!emptied.length) return;
  partKeys ??= new Set(PART_WORDS.map(fold));
  const parts = emptied.map((r) => r.folded).filter((k) => partKeys!.has(k));
  const gone = emptied.map((r) => r.folded).filter((k) => !partKeys!.has(k));
  if (parts.length)
    await c.query(`UPDATE search_terms SET kind = ${TERM_KIND.part} WHERE folded = ANY($1::text[])`, [parts]);
  if (gone.length) await c.query('DELETE FROM search_terms WHERE folded = ANY($1::text[])', [gone]);
}
