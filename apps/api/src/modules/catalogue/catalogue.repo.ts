/**
 * SQL of the catalogue's products and offers (search hits, product pages, media): the rows as stored; the views
 * (prices, orderability, favourites) are built in offers.ts and product-views.ts.
 */
import type pg from 'pg';
import type { MediaEntry } from './catalogue.types.ts';
import { todayPriceColumns, todayPriceJoin } from './today-price.ts';

export interface OfferRow {
  product_instance_id: string;
  product_no: number;
  supplier_bp_number: string;
  supplier_pid: string;
  product_data_source: number;
  unit_code: string;
  net_price: number | null;
  price_basis: number;
  price_quantity_unit: string | null;
  gross_list_price: number | null;
  price_on_demand: boolean;
  min_order_quantity: number;
  min_order_unit: string | null;
  time_to_delivery_days: number | null;
  note_of_use: string | null;
  accessories: string[];
  spare_parts: string[];
}

export interface ProductRow {
  id: number;
  product_id: string;
  manufacturer_id: string;
  manufacturer_pid: string;
  gtin: string | null;
  brand_no: number;
  series: string | null;
  model_number: string | null;
  product_name: string;
  product_descr: string | null;
  marketing_text: string | null;
  note_of_use: string | null;
  product_type: string | null;
  article_number_catalogue: string | null;
  class_no: number | null;
  feature_values: number[];
  commodity_group_descr: string | null;
  energy_efficiency_class: string | null;
  color: string | null;
  measure_a_mm: number | null;
  measure_b_mm: number | null;
  measure_c_mm: number | null;
  weight_kg: number | null;
  packaging_quantity: number | null;
  country_of_origin: string | null;
  standard_delivery_period: number | null;
  leaf_no: number;
  accessories: string[];
  spare_parts: string[];
  /** Product ids of successors (supplier catalogues); not among the search hit columns. */
  successors?: string[];
  media: MediaEntry[];
}

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

/** Product columns of a search hit (no descriptions: pages of 100 hits stay small), read beside its offers. */
const HIT_PRODUCT_COLUMNS = [
  'id',
  'product_id',
  'manufacturer_id',
  'manufacturer_pid',
  'gtin',
  'brand_no',
  'series',
  'product_name',
  'product_type',
  'article_number_catalogue',
  'class_no',
  'leaf_no',
  'media',
] as const;

export type HitProductRow = Pick<ProductRow, (typeof HIT_PRODUCT_COLUMNS)[number]>;

/**
 * A hit's media: only its first picture (the hit shows no other medium, product-views.ts `firstPictureUrl`). The data
 * sheets, manuals and further views were half of a kept hit's text (hit-store.ts) and of what a page parses.
 */
const HIT_MEDIA = `COALESCE((SELECT jsonb_build_array(e.m) FROM jsonb_array_elements(p.media) WITH ORDINALITY e(m, i)
   WHERE e.m->>'type' = 'picture' ORDER BY e.i LIMIT 1), '[]'::jsonb)`;

/** The SQL of a product's hit column. */
const hitColumn = (c: (typeof HIT_PRODUCT_COLUMNS)[number]) => (c === 'media' ? HIT_MEDIA : `p.${c}`);

/**
 * Search hits in one statement: each offer of the products with the price valid today, whether the user marked it a
 * favourite for the partner (none without a partner), and its product's hit columns (prefixed `hit_`, repeated per
 * offer). Products without an offer are not hits and are not returned.
 */
export async function hitRowsOfProducts(
  pool: pg.Pool,
  productNos: number[],
  userId: string,
  bpNumber: string | null,
): Promise<{ products: HitProductRow[]; offers: OfferRow[]; favourites: string[] }> {
  const { rows } = await pool.query<Record<string, unknown>>({
    // Named: prepared once per connection (its plan took longer to make than to run, docs/performance.md).
    name: 'search-hit-rows',
    text: `SELECT ${OFFER_COLUMNS},
            ($3::text IS NOT NULL AND EXISTS (
              SELECT 1 FROM favorite_products f
               WHERE f.user_id = $2 AND f.bp_number = $3 AND f.product_instance_id = o.product_instance_id)) AS is_favourite,
            ${HIT_PRODUCT_COLUMNS.map((c) => `${hitColumn(c)} AS hit_${c}`).join(', ')}
       FROM product_offers o JOIN products p ON p.id = o.product_no ${todayPriceJoin('o')}
      WHERE o.product_no = ANY($1::int[])`,
    // Without a partner there are no favourites: the user is not asked for (a caller without one may have no user id).
    values: [productNos, bpNumber ? userId : null, bpNumber ?? null],
  });
  const products = new Map<number, HitProductRow>();
  const offers: OfferRow[] = [];
  const favourites: string[] = [];
  // The column names split once (not per row): offer columns and the product's `hit_` columns.
  const keys = rows.length ? Object.keys(rows[0]) : [];
  const offerKeys = keys.filter((k) => !k.startsWith('hit_') && k !== 'is_favourite');
  const productKeys = keys.filter((k) => k.startsWith('hit_'));
  const productNames = productKeys.map((k) => k.slice(4));
  for (const row of rows) {
    const offer: Record<string, unknown> = {};
    const product: Record<string, unknown> = {};
    for (const key of offerKeys) offer[key] = row[key];
    for (let k = 0; k < productKeys.length; k++) product[productNames[k]] = row[productKeys[k]];
    offers.push(offer as unknown as OfferRow);
    if (row.is_favourite) favourites.push(row.product_instance_id as string);
    if (!products.has(product.id as number)) products.set(product.id as number, product as unknown as HitProductRow);
  }
  return { products: [...products.values()], offers, favourites };
}

/** The offer fields of a kept search hit, in the order of `hitTextsOfProducts`' arrays. */
export const HIT_OFFER_FIELDS = [
  'product_instance_id',
  'product_no',
  'supplier_bp_number',
  'supplier_pid',
  'product_data_source',
  'unit_code',
  'net_price',
  'gross_list_price',
  'price_basis',
  'price_on_demand',
  'price_quantity_unit',
  'min_order_quantity',
  'min_order_unit',
  'time_to_delivery_days',
  'note_of_use',
  'accessories',
  'spare_parts',
] as const satisfies readonly (keyof OfferRow)[];

/** The product fields of a kept search hit, in the order of `hitTextsOfProducts`' arrays. */
export const HIT_PRODUCT_FIELDS = HIT_PRODUCT_COLUMNS;

/**
 * The search hits' store's form of products (search/hit-store.ts): per product with offers one JSON text
 * `[[product values], [[offer values], …]]` in the order of HIT_PRODUCT_FIELDS and HIT_OFFER_FIELDS, with the price
 * valid today (no favourites: they are the caller's). Built by Postgres, so the API keeps the text as it comes
 * instead of parsing rows of thirty columns. Numbers arrive as JSON numbers (NUMERIC too; offers.ts reads them as
 * numbers either way).
 */
export async function hitTextsOfProducts(pool: pg.Pool, productNos: number[]): Promise<{ id: number; hit: string }[]> {
  const { rows } = await pool.query<{ id: number; hit: string }>({
    name: 'search-hit-texts',
    text: `SELECT p.id, json_build_array(json_build_array(${HIT_PRODUCT_COLUMNS.map(hitColumn).join(', ')}), x.offers)::text AS hit
             FROM products p
             CROSS JOIN LATERAL (
               SELECT json_agg(json_build_array(${HIT_OFFER_FIELDS.map((c) => `r.${c}`).join(', ')})) AS offers
                 FROM (SELECT ${OFFER_COLUMNS} FROM product_offers o ${todayPriceJoin('o')} WHERE o.product_no = p.id) r
             ) x
            WHERE p.id = ANY($1::int[]) AND x.offers IS NOT NULL`,
    values: [productNos],
  });
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

/** Every favourite of the user for the partner (the search hits' store marks favourites from it). */
export async function allFavouriteInstanceIds(pool: pg.Pool, userId: string, bpNumber: string): Promise<string[]> {
  const { rows } = await pool.query<{ product_instance_id: string }>(
    'SELECT product_instance_id FROM favorite_products WHERE user_id = $1 AND bp_number = $2',
    [userId, bpNumber],
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

/** The catalogue's version (raised by every import; caches compare it). */
export async function catalogueVersion(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM catalogue_state');
  return Number(rows[0]?.version ?? 0);
}

/** Everything the catalogue meta cache holds (catalogue-meta.ts), read at once. */
export async function catalogueMetaRows(pool: pg.Pool) {
  const [state, manufacturers, brands, suppliers, classes, slots, features, values, tree, units] = await Promise.all([
    pool.query<{ products: number }>('SELECT products FROM catalogue_state'),
    pool.query<{ manufacturer_id: string; name: string }>('SELECT manufacturer_id, name FROM manufacturers'),
    pool.query<{ brand_no: number; name: string; manufacturer_id: string }>(
      'SELECT brand_no, name, manufacturer_id FROM brands',
    ),
    pool.query<{
      supplier_no: number;
      bp_number: string;
      name: string;
      organisation_type: number;
      required_onboarding_form: boolean | null;
      hide_additional_info: boolean | null;
      hide_gross_price: boolean | null;
    }>(
      `SELECT n.supplier_no, n.bp_number, bp.name, bp.organisation_type, s.required_onboarding_form, s.hide_additional_info, s.hide_gross_price
         FROM catalogue_supplier_numbers n JOIN business_partners bp USING (bp_number) LEFT JOIN suppliers s USING (bp_number)`,
    ),
    pool.query<{ class_no: number; class_id: string; description: string }>(
      'SELECT class_no, class_id, description FROM etim_classes',
    ),
    pool.query<{ class_no: number; slot: number; feature_no: number }>(
      'SELECT class_no, slot, feature_no FROM etim_class_features ORDER BY class_no, slot',
    ),
    pool.query<{
      feature_no: number;
      feature_id: string;
      description: string;
      kind: 'N' | 'A';
      unit_code: string | null;
    }>('SELECT feature_no, feature_id, description, kind, unit_code FROM etim_features'),
    pool.query<{ value_no: number; value_id: string; description: string }>(
      'SELECT value_no, value_id, description FROM etim_values',
    ),
    pool.query<{
      node_no: number;
      element_id: string;
      parent_no: number | null;
      type: 'root' | 'node' | 'leaf';
      name: string;
      sort: number;
    }>('SELECT node_no, element_id, parent_no, type, name, sort FROM product_tree ORDER BY sort, node_no'),
    pool.query<{ code: string; short_description: string }>('SELECT code, short_description FROM units'),
  ]);
  return { state, manufacturers, brands, suppliers, classes, slots, features, values, tree, units };
}
