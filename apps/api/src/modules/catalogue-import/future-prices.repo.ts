/**
 * Promotion of future price blocks (catalogue_offer_prices): once a block's first day has come in
 * Europe/Berlin it becomes the offer's own price, and the search index's lowest price follows. Price
 * reads do not wait for this (they join the block valid today, `todayPriceJoin`); the promotion
 * keeps the offer rows, the search's price sort and filter, and the unchanged detection of the next
 * import in step. Runs as the daily pg-boss job `catalogue-future-prices` (00:05 Europe/Berlin).
 */
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { bumpCatalogueVersion } from './import-run.repo.ts';
import { refreshSearchOffers } from './search-publication.repo.ts';

export const FUTURE_PRICES_QUEUE = 'catalogue-future-prices';
/** Every day at 00:05 in Europe/Berlin. */
export const FUTURE_PRICES_CRON = '5 0 * * *';

/** Moves the blocks due today into their offers; returns the offers changed. */
export async function promoteDuePrices(pool: pg.Pool): Promise<number> {
  const c = await pool.connect();
  try {
    return await inClientTransaction(c, async () => {
      const { rows } = await c.query<{ product_no: number }>(
        `WITH today AS (SELECT (now() AT TIME ZONE 'Europe/Berlin')::date AS d),
            due AS (SELECT DISTINCT ON (f.product_instance_id) f.*
                      FROM catalogue_offer_prices f, today WHERE f.valid_from <= today.d
                     ORDER BY f.product_instance_id, f.valid_from DESC),
            promoted AS (
              UPDATE product_offers o
                 SET net_price = d.net_price, gross_list_price = COALESCE(d.gross_list_price, o.gross_list_price),
                     price_scales = d.price_scales, price_valid_from = d.valid_from, price_valid_to = d.valid_to,
                     price_basis = COALESCE(d.price_basis, o.price_basis), price_on_demand = d.net_price IS NULL,
                     import_hash = NULL
                FROM due d, today
               WHERE o.product_instance_id = d.product_instance_id AND (d.valid_to IS NULL OR d.valid_to >= today.d)
              RETURNING o.product_no),
            gone AS (DELETE FROM catalogue_offer_prices f USING today WHERE f.valid_from <= today.d RETURNING 1)
       SELECT product_no FROM promoted`,
      );
      const products = [...new Set(rows.map((r) => r.product_no))];
      if (products.length) {
        await refreshSearchOffers(c, products);
        await bumpCatalogueVersion(c);
      }
      return rows.length;
    });
  } finally {
    c.release();
  }
}
