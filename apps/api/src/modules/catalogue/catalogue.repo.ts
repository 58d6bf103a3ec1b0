/**
 * SQL of the catalogue's products and offers (search hits, product pages, media): the rows as stored; the views
 * (prices, orderability, favourites) are built in offers.ts and product-views.ts.
 */
import type pg from 'pg';
import type { MediaEntry } from './catalogue.types.ts';
import type { OfferRow } from './offers.ts';
import { todayPriceColumns, todayPriceJoin } from './today-price.ts';
import type { ProductRow } from './product-views.ts';

/** Products matching a condition on `p` (the callers' fixed conditions with parameters). */
export async function productRows(
  pool: pg.Pool,
  where: string,
  params: unknown[],
  columns = '*',
): Promise<ProductRow[]> {
  const { rows } = await pool.query<ProductRow>(`SELECT ${columns} FROM products p WHERE ${where}`, params);
  return rows;
}

const OFFER_COLUMNS = `o.product_instance_id, o.product_no, o.supplier_bp_number, o.supplier_pid, o.product_data_source, o.unit_code,
  ${todayPriceColumns('o')}, o.price_quantity_unit, o.min_order_quantity, o.min_order_unit, o.time_to_delivery_days,
  o.note_of_use, o.accessories, o.spare_parts`;

/** The offers of the given products with the price valid today. */
export async function offerRowsOfProducts(pool: pg.Pool, productNos: number[]): Promise<OfferRow[]> {
  const { rows } = await pool.query<OfferRow>(
    `SELECT ${OFFER_COLUMNS} FROM product_offers o ${todayPriceJoin('o')} WHERE o.product_no = ANY($1::int[])`,
    [productNos],
  );
  return rows;
}

/** One offer with the price valid today. */
export async function offerRowOf(pool: pg.Pool, productInstanceId: string): Promise<OfferRow | undefined> {
  const { rows } = await pool.query<OfferRow>(
    `SELECT ${OFFER_COLUMNS} FROM product_offers o ${todayPriceJoin('o')} WHERE o.product_instance_id = $1`,
    [productInstanceId],
  );
  return rows[0];
}

/** The supplier settings an administrator changes on /admin (hide flags, onboarding form). */
export async function supplierSettingRows(pool: pg.Pool, bps: string[]) {
  const { rows } = await pool.query<{
    bp_number: string;
    required_onboarding_form: boolean | null;
    hide_additional_info: boolean | null;
    hide_gross_price: boolean | null;
  }>(
    `SELECT bp_number, required_onboarding_form, hide_additional_info, hide_gross_price
       FROM suppliers WHERE bp_number = ANY($1::text[])`,
    [bps],
  );
  return rows;
}

/** Which of the offers are favourites of the user for the partner. */
export async function favouriteInstanceIds(
  pool: pg.Pool,
  userId: string,
  bpNumber: string,
  instanceIds: string[],
): Promise<string[]> {
  const { rows } = await pool.query<{ product_instance_id: string }>(
    'SELECT product_instance_id FROM favorite_products WHERE user_id = $1 AND bp_number = $2 AND product_instance_id = ANY($3)',
    [userId, bpNumber, instanceIds],
  );
  return rows.map((r) => r.product_instance_id);
}

/** What the generated media of products are drawn from. */
export async function mediaProductRows(pool: pg.Pool, ids: number[]) {
  const { rows } = await pool.query<{
    id: number;
    product_name: string;
    brand: string;
    manufacturer_pid: string;
    gtin: string | null;
    leaf_no: number;
    measure_a_mm: number | null;
    measure_b_mm: number | null;
    measure_c_mm: number | null;
    product_descr: string | null;
    media: MediaEntry[];
  }>(
    `SELECT p.id, p.product_name, b.name AS brand, p.manufacturer_pid, p.gtin, p.leaf_no, p.measure_a_mm, p.measure_b_mm, p.measure_c_mm, p.product_descr, p.media
       FROM products p JOIN brands b USING (brand_no) WHERE p.id = ANY($1::int[])`,
    [ids],
  );
  return rows;
}
