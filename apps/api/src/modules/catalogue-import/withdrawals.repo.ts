/**
 * SQL of the withdrawal of offers a full catalogue no longer contains: counted and checked before, recorded for
 * approval when implausible, snapshotted for undo, and withdrawn with their search rows and words.
 */
import type pg from 'pg';
import { lowerTermsOfWithdrawn } from './search-terms.repo.ts';
import { refreshSearchOffers } from './search-publication.repo.ts';
import { STAGE } from './staging.repo.ts';

/** An offer of the supplier ($1) that full catalogue $2 did not contain. */
const NOT_SEEN =
  'NOT EXISTS (SELECT 1 FROM catalogue_import_seen s WHERE s.import_id = $2 AND s.supplier_pid = o.supplier_pid)';

/** Offers of the supplier now, and how many of them full catalogue `importId` would withdraw. */
export async function countWithdrawals(c: pg.PoolClient, supplier: string, importId: number) {
  const { rows } = await c.query<{ assortment: number; withdraw: number }>(
    `SELECT count(*)::int AS assortment, count(*) FILTER (WHERE ${NOT_SEEN})::int AS withdraw
       FROM product_offers o WHERE o.supplier_bp_number = $1`,
    [supplier, importId],
  );
  return rows[0];
}

/** A full catalogue waiting for approval: the offers it would withdraw are listed (logged), none withdrawn. */
export async function recordPendingWithdrawals(c: pg.PoolClient, supplier: string, importId: number) {
  await c.query(
    `INSERT INTO catalogue_import_pending_withdrawals (import_id, supplier_pid)
     SELECT $2, o.supplier_pid FROM product_offers o WHERE o.supplier_bp_number = $1 AND ${NOT_SEEN}
     ON CONFLICT DO NOTHING`,
    [supplier, importId],
  );
}

/**
 * Undo: the staged articles' offers and future price blocks as they are before the batch writes them (no offer: the
 * import creates it), and their products with their search rows. The first record of an import wins (its state
 * before).
 */
export async function snapshotStaged(c: pg.PoolClient, importId: number) {
  await c.query(
    `INSERT INTO catalogue_import_undo_offers (import_id, product_instance_id, offer, future_prices)
       SELECT $1, t.iid, to_jsonb(o),
              (SELECT jsonb_agg(to_jsonb(f)) FROM catalogue_offer_prices f WHERE f.product_instance_id = o.product_instance_id)
         FROM ${STAGE} t LEFT JOIN product_offers o ON o.product_instance_id = t.iid
       ON CONFLICT DO NOTHING`,
    [importId],
  );
  await c.query(
    `INSERT INTO catalogue_import_undo_products (import_id, id, product, search)
     SELECT $1, p.id, to_jsonb(p), to_jsonb(ps) FROM products p LEFT JOIN product_search ps ON ps.id = p.id
      WHERE p.product_id IN (SELECT product_id FROM ${STAGE})
     ON CONFLICT DO NOTHING`,
    [importId],
  );
}

/**
 * Offers `o` of the supplier ($1) to withdraw for import $2: those a full catalogue did not contain, those a full
 * catalogue waiting for approval listed, those the import created (undo), or all (undo of a supplier's first
 * catalogue).
 */
const WITHDRAWAL_SETS = {
  'not-seen': NOT_SEEN,
  pending:
    'EXISTS (SELECT 1 FROM catalogue_import_pending_withdrawals w WHERE w.import_id = $2 AND w.supplier_pid = o.supplier_pid)',
  created: `EXISTS (SELECT 1 FROM catalogue_import_undo_offers u
                     WHERE u.import_id = $2 AND u.product_instance_id = o.product_instance_id AND u.offer IS NULL)`,
  all: 'true',
};
export type WithdrawalSet = keyof typeof WITHDRAWAL_SETS;

/**
 * Withdraws offers: moved to catalogue_withdrawn_offers (not deleted for good) so past orders and
 * favourites still resolve their article data and a later import can bring them back.
 */
export async function withdrawOffers(
  c: pg.PoolClient,
  supplier: string,
  importId: number,
  pids: string[] | WithdrawalSet,
): Promise<number> {
  const condition = Array.isArray(pids) ? 'o.supplier_pid = ANY($3)' : WITHDRAWAL_SETS[pids];
  // Undo: the products of the offers withdrawn, with their search rows, as they are before (a product whose last offer
  // goes loses its search row).
  await c.query(
    `INSERT INTO catalogue_import_undo_products (import_id, id, product, search)
     SELECT $2, p.id, to_jsonb(p), to_jsonb(ps) FROM product_offers o JOIN products p ON p.id = o.product_no
       LEFT JOIN product_search ps ON ps.id = p.id
      WHERE o.supplier_bp_number = $1 AND ${condition}
     ON CONFLICT DO NOTHING`,
    Array.isArray(pids) ? [supplier, importId, pids] : [supplier, importId],
  );
  const { rows } = await c.query<{ product_no: number }>(
    `WITH gone AS (DELETE FROM product_offers o WHERE o.supplier_bp_number = $1 AND ${condition} RETURNING o.*)
     INSERT INTO catalogue_withdrawn_offers (product_instance_id, supplier_bp_number, product_no, offer, import_id)
     SELECT product_instance_id, supplier_bp_number, product_no, to_jsonb(gone), $2 FROM gone
     ON CONFLICT (product_instance_id) DO UPDATE SET offer = EXCLUDED.offer, import_id = EXCLUDED.import_id, withdrawn_at = now()
     RETURNING product_no`,
    Array.isArray(pids) ? [supplier, importId, pids] : [supplier, importId],
  );
  if (pids === 'pending')
    await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = $1', [importId]);
  const products = [...new Set(rows.map((r) => r.product_no))];
  await lowerTermsOfWithdrawn(c, products);
  await refreshSearchOffers(c, products);
  return rows.length;
}
