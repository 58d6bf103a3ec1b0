/**
 * SQL of the approval and undo of catalogue imports: the supplier's limits for a full catalogue, the portal's units,
 * and the undo of an import from what it recorded (catalogue_import_undo_offers/products, migration 0300) and the
 * offers it withdrew (catalogue_withdrawn_offers).
 */
import type pg from 'pg';
import {
  CATALOGUE_IMPORT_DEFAULT_MAX_REJECT_PERCENT,
  CATALOGUE_IMPORT_DEFAULT_MAX_WITHDRAW_PERCENT,
  type CatalogueImportSettings,
} from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import { refreshSearchOffers } from './search-publication.repo.ts';
import { withdrawOffers } from './withdrawals.repo.ts';

/** The supplier's limits (defaults when staff set none), its media fallback address and whether a media token is kept. */
export async function importSettings(c: Queryable, supplier: string): Promise<CatalogueImportSettings> {
  const { rows } = await c.query<{ w: string; r: string; fallback: string | null; token: boolean }>(
    `SELECT max_withdraw_percent AS w, max_reject_percent AS r, media_fallback_base_url AS fallback,
            media_access_token IS NOT NULL AS token
       FROM catalogue_import_settings WHERE supplier_bp_number = $1`,
    [supplier],
  );
  return rows[0]
    ? {
        maxWithdrawPercent: Number(rows[0].w),
        maxRejectPercent: Number(rows[0].r),
        mediaFallbackBaseUrl: rows[0].fallback,
        mediaAccessTokenSet: rows[0].token,
      }
    : {
        maxWithdrawPercent: CATALOGUE_IMPORT_DEFAULT_MAX_WITHDRAW_PERCENT,
        maxRejectPercent: CATALOGUE_IMPORT_DEFAULT_MAX_REJECT_PERCENT,
        mediaFallbackBaseUrl: null,
        mediaAccessTokenSet: false,
      };
}

/**
 * Saves the limits; the media fallback address and the (already encrypted) token only when given: absent keeps
 * them, null removes them.
 */
export async function saveImportSettings(
  c: Queryable,
  supplier: string,
  settings: CatalogueImportSettings & { sealedMediaToken?: string | null },
  userId: string | null,
) {
  await c.query(
    `INSERT INTO catalogue_import_settings AS s (supplier_bp_number, max_withdraw_percent, max_reject_percent, updated_by,
            media_fallback_base_url, media_access_token)
     VALUES ($1, $2, $3, $4, $6, $8)
     ON CONFLICT (supplier_bp_number) DO UPDATE SET max_withdraw_percent = EXCLUDED.max_withdraw_percent,
       max_reject_percent = EXCLUDED.max_reject_percent, updated_by = EXCLUDED.updated_by, updated_at = now(),
       media_fallback_base_url = CASE WHEN $5 THEN EXCLUDED.media_fallback_base_url ELSE s.media_fallback_base_url END,
       media_access_token = CASE WHEN $7 THEN EXCLUDED.media_access_token ELSE s.media_access_token END`,
    [
      supplier,
      settings.maxWithdrawPercent,
      settings.maxRejectPercent,
      userId,
      settings.mediaFallbackBaseUrl !== undefined,
      settings.mediaFallbackBaseUrl || null,
      settings.sealedMediaToken !== undefined,
      settings.sealedMediaToken ?? null,
    ],
  );
}

/** What the media fetcher needs of a supplier's settings: the fallback address and the encrypted token. */
export async function mediaAccessOf(
  c: Queryable,
  supplier: string,
): Promise<{ fallbackBaseUrl: string | null; sealedToken: string | null }> {
  const { rows } = await c.query<{ fallback: string | null; token: string | null }>(
    `SELECT media_fallback_base_url AS fallback, media_access_token AS token
       FROM catalogue_import_settings WHERE supplier_bp_number = $1`,
    [supplier],
  );
  return { fallbackBaseUrl: rows[0]?.fallback ?? null, sealedToken: rows[0]?.token ?? null };
}

/** The UN/ECE codes of the portal's units. */
export async function knownUnits(c: Queryable): Promise<Set<string>> {
  const { rows } = await c.query<{ code: string }>('SELECT code FROM units');
  return new Set(rows.map((r) => r.code));
}

export async function markApproved(c: Queryable, id: number, userId: string | null, withdrawn: number) {
  await c.query(
    `UPDATE catalogue_imports SET status = 'Completed', approved_by = $2, approved_at = now(), finished_at = now(),
            deleted_count = deleted_count + $3 WHERE id = $1`,
    [id, userId, withdrawn],
  );
}

export async function markReverted(
  c: Queryable,
  id: number,
  status: 'Discarded' | 'RolledBack',
  userId: string | null,
) {
  await c.query(`UPDATE catalogue_imports SET status = $2, reverted_by = $3, reverted_at = now() WHERE id = $1`, [
    id,
    status,
    userId,
  ]);
  await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = $1', [id]);
  await dropUndoRecords(c, `= $1`, [id]);
}

/** Only the supplier's latest import can be undone: the records of its earlier ones are dropped. */
export async function dropEarlierUndoRecords(c: Queryable, supplier: string, id: number) {
  await dropUndoRecords(c, `IN (SELECT id FROM catalogue_imports WHERE supplier_bp_number = $1 AND id < $2)`, [
    supplier,
    id,
  ]);
}

async function dropUndoRecords(c: Queryable, condition: string, params: unknown[]) {
  await c.query(`DELETE FROM catalogue_import_undo_offers WHERE import_id ${condition}`, params);
  await c.query(`DELETE FROM catalogue_import_undo_products WHERE import_id ${condition}`, params);
}

/** Offer columns an import writes (OFFER_CONFLICT in staging.repo.ts): the ones undo sets back. */
const OFFER_COLUMNS = [
  'product_no',
  'unit_code',
  'net_price',
  'price_basis',
  'gross_list_price',
  'price_on_demand',
  'min_order_quantity',
  'min_order_unit',
  'time_to_delivery_days',
  'quantity_interval',
  'content_unit',
  'price_valid_from',
  'price_valid_to',
  'price_scales',
  'import_hash',
];
/** Product columns an import writes (upsertProducts). */
const PRODUCT_COLUMNS = [
  'gtin',
  'brand_no',
  'model_number',
  'product_name',
  'product_descr',
  'product_type',
  'class_no',
  'feature_values',
  'leaf_no',
  'accessories',
  'spare_parts',
  'successors',
  'media',
  'updated_at',
];
const assign = (columns: string[]) => `(${columns.join(', ')}) = (${columns.map((k) => `r.${k}`).join(', ')})`;

/**
 * Sets the catalogue back to before import `id` in the caller's transaction: offers it withdrew come back, offers it
 * changed get their former values and future price blocks, offers it created are withdrawn (a supplier's first
 * catalogue: all of the supplier's offers), products get their former values and search rows; supplier numbers and
 * lowest prices follow the offers. Returns the offers withdrawn and brought back.
 */
export async function undoImport(c: pg.PoolClient, supplier: string, id: number, firstCatalogue: boolean) {
  const touched = new Set<number>();
  const add = (rows: { product_no: number }[]) => rows.forEach((r) => touched.add(r.product_no));
  // Offers it withdrew come back (before the ones it created are withdrawn under its id).
  const back = await c.query<{ product_no: number }>(
    `WITH back AS (DELETE FROM catalogue_withdrawn_offers w WHERE w.import_id = $1 AND w.supplier_bp_number = $2 RETURNING offer)
     INSERT INTO product_offers SELECT r.* FROM back, jsonb_populate_record(NULL::product_offers, back.offer) r
     ON CONFLICT (product_instance_id) DO NOTHING RETURNING product_no`,
    [id, supplier],
  );
  add(back.rows);
  // Offers it changed: former values and future price blocks. The products they name now lose them (an offer the
  // import moved to another manufacturer article): their search rows follow too.
  add(
    (
      await c.query<{ product_no: number }>(
        `SELECT o.product_no FROM catalogue_import_undo_offers u JOIN product_offers o ON o.product_instance_id = u.product_instance_id
          WHERE u.import_id = $1 AND u.offer IS NOT NULL`,
        [id],
      )
    ).rows,
  );
  add(
    (
      await c.query<{ product_no: number }>(
        `UPDATE product_offers o SET ${assign(OFFER_COLUMNS)}
           FROM catalogue_import_undo_offers u, jsonb_populate_record(NULL::product_offers, u.offer) r
          WHERE u.import_id = $1 AND u.offer IS NOT NULL AND o.product_instance_id = u.product_instance_id
          RETURNING o.product_no`,
        [id],
      )
    ).rows,
  );
  await c.query(
    `DELETE FROM catalogue_offer_prices f USING catalogue_import_undo_offers u
      WHERE u.import_id = $1 AND u.offer IS NOT NULL AND f.product_instance_id = u.product_instance_id`,
    [id],
  );
  await c.query(
    `INSERT INTO catalogue_offer_prices SELECT r.* FROM catalogue_import_undo_offers u,
            jsonb_array_elements(u.future_prices) e, jsonb_populate_record(NULL::catalogue_offer_prices, e) r
      WHERE u.import_id = $1 AND u.future_prices IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [id],
  );
  // Products: former values, and the search rows they had (the offers' aggregates are computed afresh below).
  add(
    (
      await c.query<{ product_no: number }>(
        `UPDATE products p SET ${assign(PRODUCT_COLUMNS)}
           FROM catalogue_import_undo_products u, jsonb_populate_record(NULL::products, u.product) r
          WHERE u.import_id = $1 AND p.id = u.id RETURNING p.id AS product_no`,
        [id],
      )
    ).rows,
  );
  await c.query(
    `DELETE FROM product_search s USING catalogue_import_undo_products u
      WHERE u.import_id = $1 AND u.search IS NOT NULL AND s.id = u.id`,
    [id],
  );
  await c.query(
    `INSERT INTO product_search SELECT r.* FROM catalogue_import_undo_products u, jsonb_populate_record(NULL::product_search, u.search) r
      WHERE u.import_id = $1 AND u.search IS NOT NULL`,
    [id],
  );
  await c.query(
    `INSERT INTO product_search_prices (id, price_cents, offers)
     SELECT u.id, NULL, 0 FROM catalogue_import_undo_products u WHERE u.import_id = $1 AND u.search IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [id],
  );
  await refreshSearchOffers(c, [...touched]);
  // Offers it created are withdrawn (their search rows follow there).
  const withdrawn = await withdrawOffers(c, supplier, id, firstCatalogue ? 'all' : 'created');
  const restored = back.rowCount ?? 0;
  return { withdrawn, restored };
}
