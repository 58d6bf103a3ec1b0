/**
 * SQL of a price update's lane (T_UPDATE_PRICES): staged price lines looked up by index, today's prices and future
 * price blocks of the offers they name, and the search rows' lowest prices of the products whose prices changed
 * (written beside the merge by the second session, or marked pending and repaired after a crash).
 */
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { CHANGED, LOWEST_UNIT_CENTS, PRICE_STAGE, replaceFuturePrices } from './staging.repo.ts';

/**
 * A staged price batch is small against the catalogue (50,000 lines against a million offers): its statements look
 * every line up by index (nested loops), never scan all offers or search rows and hash them. The planner cannot know
 * the staging table's size and, left to itself, hashed the whole offers and search tables in every batch (about 1.9 s
 * of 3.2 s per batch at 1,000,000 products). For the rest of the batch's transaction.
 */
export async function lookUpPricesByIndex(c: pg.PoolClient) {
  await c.query(`SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off`);
}

/**
 * Staged price lines whose article the supplier's catalogue does not have. Runs after the offers' update: lines that
 * changed an offer are known (no lookup); the others are looked up by index.
 */
export async function unknownPriceArticles(c: pg.PoolClient, supplier: string) {
  const { rows } = await c.query<{ pos: number; pid: string }>(
    `SELECT t.pos, t.pid FROM ${PRICE_STAGE} t
        WHERE t.pos NOT IN (SELECT x.pos FROM ${CHANGED} x)
          AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid)
        ORDER BY t.pos`,
    [supplier],
  );
  return rows;
}

/** Marks the staged price lines whose future blocks differ from the stored ones (compared as JSON, ascending by start). */
export async function markChangedFuturePrices(c: pg.PoolClient, supplier: string) {
  await c.query(
    `UPDATE ${PRICE_STAGE} t SET fchanged = true FROM product_offers o
            WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
              AND COALESCE((SELECT jsonb_agg(jsonb_build_object('from', f.valid_from, 'to', f.valid_to, 'net', f.net_price,
                                                                'gross', f.gross_list_price, 'scales', f.price_scales) ORDER BY f.valid_from)
                              FROM catalogue_offer_prices f WHERE f.product_instance_id = o.product_instance_id), '[]'::jsonb)
                  IS DISTINCT FROM COALESCE(t.future::jsonb, '[]'::jsonb)`,
    [supplier],
  );
}

/** Net price per unit in cents of an offer `o` (null: no price, or on demand) — the lowest price's measure. */
const UNIT_CENTS = `CASE WHEN o.net_price IS NOT NULL AND NOT o.price_on_demand THEN round(o.net_price / o.price_basis * 100)::int END AS cents`;

/** Today's price where the file has one (t.current); returns the offers changed (their products and lines go to the changed table). */
export async function updateOfferPrices(c: pg.PoolClient, supplier: string): Promise<number> {
  const { rowCount } = await c.query(
    `WITH changed AS (
         UPDATE product_offers o
            SET net_price = CASE WHEN t.current THEN t.net ELSE o.net_price END,
                gross_list_price = CASE WHEN t.current THEN COALESCE(t.gross, o.gross_list_price) ELSE o.gross_list_price END,
                price_scales = CASE WHEN t.current THEN t.scales::jsonb ELSE o.price_scales END,
                price_valid_from = CASE WHEN t.current THEN t.valid_from ELSE o.price_valid_from END,
                price_valid_to = CASE WHEN t.current THEN t.valid_to ELSE o.price_valid_to END,
                price_basis = CASE WHEN t.current THEN COALESCE(t.basis, o.price_basis) ELSE o.price_basis END,
                price_on_demand = CASE WHEN t.current THEN false ELSE o.price_on_demand END, import_hash = NULL
           FROM ${PRICE_STAGE} t
          WHERE o.supplier_bp_number = $1 AND o.supplier_pid = t.pid
            AND (t.fchanged OR t.current AND
                 (o.net_price, o.gross_list_price, o.price_scales, o.price_valid_from, o.price_valid_to, o.price_basis, o.price_on_demand)
                 IS DISTINCT FROM (t.net, COALESCE(t.gross, o.gross_list_price), t.scales::jsonb, t.valid_from, t.valid_to,
                                   COALESCE(t.basis, o.price_basis), false))
          RETURNING o.product_no, t.pos, ${UNIT_CENTS})
       INSERT INTO ${CHANGED} (product_no, pos, cents) SELECT product_no, pos, cents FROM changed`,
    [supplier],
  );
  return rowCount ?? 0;
}

/** Products whose offer prices changed in a batch, with the new unit price (cents) of one changed offer each. */
export interface ChangedPrices {
  productNos: number[];
  unitCents: (number | null)[];
}

/** The products whose offer prices changed in this batch. */
export async function changedPriceProducts(c: pg.PoolClient): Promise<ChangedPrices> {
  const { rows } = await c.query<{ product_no: number; cents: number | null }>(
    `SELECT product_no, min(cents) AS cents FROM ${CHANGED} GROUP BY product_no`,
  );
  return { productNos: rows.map((r) => r.product_no), unitCents: rows.map((r) => r.cents) };
}

/**
 * Lowest net price per unit (cents) and number of offers of the products `ids` (a subquery), from their offers: one
 * grouped pass.
 */
const lowestPrices = (ids: string) => `
  SELECT o.product_no AS id,
         ${LOWEST_UNIT_CENTS} AS price,
         count(*)::int AS offers
    FROM product_offers o WHERE o.product_no IN (${ids}) GROUP BY o.product_no`;

/**
 * The lowest price of the search rows of products whose offer prices changed (a batch of a price update, written by
 * the import's second session after the batch committed, or by the last batch's own) — in the narrow
 * product_search_prices (migration 0205), not in the wide search rows. A product with a single offer (offers = 1,
 * migration 0230; a price update adds or removes none) gets the changed offer's unit price as it is; the others
 * (offers 0: not known) are computed from all their offers, and their count of offers recorded. Looked up by index;
 * the caller wraps it in a transaction.
 */
export async function updateSearchPricesOf(c: pg.PoolClient, changed: ChangedPrices) {
  await lookUpPricesByIndex(c);
  // The subquery's condition on s.offers is a one-time filter: a single offer's row reads no offers. The others are
  // written even when their lowest price stays (a dearer offer changed): one row each, no second read of the offers.
  await c.query(
    `UPDATE product_search_prices s
        SET (price_cents, offers) = (
              SELECT CASE WHEN s.offers = 1 THEN v.cents
                          ELSE ${LOWEST_UNIT_CENTS} END,
                     CASE WHEN s.offers = 1 THEN 1 ELSE count(*)::int END
                FROM product_offers o WHERE o.product_no = s.id AND s.offers <> 1)
       FROM unnest($1::int[], $2::int[]) v(id, cents)
      WHERE s.id = v.id AND NOT (s.offers = 1 AND s.price_cents IS NOT DISTINCT FROM v.cents)`,
    [changed.productNos, changed.unitCents],
  );
}

/** From the batch's commit on, the supplier's search rows may lag its offer prices until the import ends. */
export async function markSearchPricesPending(c: pg.PoolClient, supplier: string) {
  await c.query('INSERT INTO catalogue_import_search_prices (supplier_bp_number) VALUES ($1) ON CONFLICT DO NOTHING', [
    supplier,
  ]);
}

export async function clearSearchPricesPending(c: pg.PoolClient, supplier: string) {
  await c.query('DELETE FROM catalogue_import_search_prices WHERE supplier_bp_number = $1', [supplier]);
}

/**
 * A price update of the supplier ended without its search rows' prices (crash, lost connection): the lowest prices
 * of all the supplier's products are recomputed, set-based, and the mark removed. Returns whether there was one.
 */
export async function repairSearchPrices(c: pg.PoolClient, supplier: string): Promise<boolean> {
  return inClientTransaction(c, async () => {
    const { rowCount } = await c.query('DELETE FROM catalogue_import_search_prices WHERE supplier_bp_number = $1', [
      supplier,
    ]);
    if (!rowCount) return false;
    await c.query(`SET LOCAL work_mem = '256MB'`);
    await c.query(
      `UPDATE product_search_prices s SET price_cents = x.price, offers = x.offers
         FROM (${lowestPrices('SELECT product_no FROM product_offers WHERE supplier_bp_number = $1')}) x
        WHERE s.id = x.id AND (s.price_cents, s.offers) IS DISTINCT FROM (x.price, x.offers)`,
      [supplier],
    );
    return true;
  });
}

/** Future price blocks of the staged price lines whose blocks changed. */
export function replacePriceStageFuturePrices(c: pg.PoolClient, supplier: string, anyFuture: boolean) {
  return replaceFuturePrices(
    c,
    PRICE_STAGE,
    'o.supplier_bp_number = $1 AND o.supplier_pid = t.pid AND t.fchanged',
    supplier,
    anyFuture,
  );
}
