import type { Queryable } from '../../db/queryable.ts';
import { todayPriceColumns, todayPriceJoin } from '../catalogue/index.ts';

export interface CartRow {
  id: number;
  bp_number: string;
  name: string;
  is_default: boolean;
  project_id: number | null;
  delivery_address_id: number | null;
  delivery_date: string | null;
  created_at: Date;
  last_order_number: string | null;
  last_checkout_at: Date | null;
  /** Set for a punchout session's own cart (hidden from the partner's normal carts). */
  punchout_context_id: string | null;
}
export interface CartItemRow {
  id: number;
  cart_id: number;
  product_instance_id: string;
  supplier_bp_number: string;
  article_number: string;
  quantity: number;
  project_id: number | null;
  delivery_date: string | null;
  delivery_address_id: number | null;
  comment: string | null;
}

export async function findCart(c: Queryable, bpNumber: string, cartId: number, lock = false): Promise<CartRow | null> {
  const { rows } = await c.query<CartRow>(
    `SELECT * FROM carts WHERE id = $1 AND bp_number = $2${lock ? ' FOR UPDATE' : ''}`,
    [cartId, bpNumber],
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : null;
}

/** The distinct offers of a partner's cart (none when the cart is not the partner's). */
export async function offerIdsOfCart(c: Queryable, bpNumber: string, cartId: number): Promise<string[]> {
  const { rows } = await c.query<{ id: string }>({
    name: 'offer-ids-of-cart', // prepared once per connection: read by every checkout
    text: `SELECT DISTINCT i.product_instance_id AS id FROM cart_items i JOIN carts c ON c.id = i.cart_id
      WHERE c.id = $1 AND c.bp_number = $2`,
    values: [cartId, bpNumber],
  });
  return rows.map((r) => r.id);
}

export async function cartItems(c: Queryable, cartId: number): Promise<CartItemRow[]> {
  const { rows } = await c.query<CartItemRow>('SELECT * FROM cart_items WHERE cart_id = $1 ORDER BY id', [cartId]);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    cart_id: Number(r.cart_id),
    project_id: r.project_id && Number(r.project_id),
    delivery_address_id: r.delivery_address_id && Number(r.delivery_address_id),
  }));
}

export async function attachmentsOf(c: Queryable, itemIds: number[]) {
  if (!itemIds.length) return new Map<number, { id: number; fileName: string; size: number }[]>();
  const { rows } = await c.query<{ id: number; cart_item_id: number; file_name: string; size_bytes: number }>(
    'SELECT id, cart_item_id, file_name, size_bytes FROM cart_item_attachments WHERE cart_item_id = ANY($1) ORDER BY id',
    [itemIds],
  );
  const map = new Map<number, { id: number; fileName: string; size: number }[]>();
  for (const r of rows) {
    const key = Number(r.cart_item_id);
    map.set(key, [...(map.get(key) ?? []), { id: Number(r.id), fileName: r.file_name, size: r.size_bytes }]);
  }
  return map;
}

/** The item only if it lies in a cart of the given partner (else null → 404). */
export async function findItem(c: Queryable, bpNumber: string, itemId: number, lock = false) {
  const { rows } = await c.query<CartItemRow>(
    `SELECT i.* FROM cart_items i JOIN carts c ON c.id = i.cart_id WHERE i.id = $1 AND c.bp_number = $2${lock ? ' FOR UPDATE OF i' : ''}`,
    [itemId, bpNumber],
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id), cart_id: Number(rows[0].cart_id) } : null;
}

export async function supplierSettings(c: Queryable, supplierBpNumbers: string[]) {
  const { rows } = await c.query<{
    bp_number: string;
    name: string;
    delivery_cost: number;
    free_delivery_threshold: number;
  }>({
    name: 'supplier-settings', // prepared once per connection: read by every cart overview
    text: `SELECT s.bp_number, b.name, s.delivery_cost, s.free_delivery_threshold FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number
      WHERE s.bp_number = ANY($1)`,
    values: [supplierBpNumbers],
  });
  return new Map(
    rows.map((r) => [
      r.bp_number,
      { name: r.name, deliveryCost: Number(r.delivery_cost), freeDeliveryThreshold: Number(r.free_delivery_threshold) },
    ]),
  );
}

/** Ensures the partner has exactly one default cart when it has any cart. */
export async function repairDefault(c: Queryable, bpNumber: string) {
  await c.query(
    `UPDATE carts SET is_default = true
      WHERE id = (SELECT id FROM carts WHERE bp_number = $1 AND punchout_context_id IS NULL ORDER BY created_at, id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM carts WHERE bp_number = $1 AND is_default)`,
    [bpNumber],
  );
}

/** What a reset clears on the cart itself (with and without a checkout). */
const CART_RESET = 'project_id = NULL, delivery_address_id = NULL, delivery_date = NULL, updated_at = now()';

/**
 * Empties a cart – all items, or only the given ones (those a checkout ordered) – and clears its project,
 * address and date. After a checkout it remembers the order (repeated checkout within a short window).
 */
export async function resetCart(c: Queryable, cartId: number, after?: { orderNumber: string; itemIds: number[] }) {
  if (after) {
    // Every checkout empties its cart: the ordered items and the cart's reset in one statement (one round trip less
    // while the checkout's transaction holds the cart), prepared once per connection. A data-modifying WITH runs to
    // completion; the cart_items triggers (totals, read-model versions, attachments) fire as for a DELETE of its own.
    await c.query({
      name: 'reset-cart-after-checkout',
      text: `WITH ordered AS (DELETE FROM cart_items WHERE cart_id = $1 AND id = ANY($3))
             UPDATE carts SET ${CART_RESET}, last_order_number = $2, last_checkout_at = now() WHERE id = $1`,
      values: [cartId, after.orderNumber, after.itemIds],
    });
    return;
  }
  await c.query('DELETE FROM cart_items WHERE cart_id = $1', [cartId]);
  await c.query({
    name: 'reset-cart',
    text: `UPDATE carts SET ${CART_RESET} WHERE id = $1`,
    values: [cartId],
  });
}

/** A cart of the overview with its stored totals and what they must match to be current (`cart_totals`, 0145). */
export interface OverviewRow {
  id: number;
  name: string;
  is_default: boolean;
  created_at: Date;
  /** null when the cart has no cart_totals row (then never stored). */
  content_version: string | null;
  stamp: string | null;
  item_count: number | null;
  total_net_value: string | null;
  catalogue_version: string;
  price_day: string;
}

/**
 * The partner's carts with their stored totals, the catalogue version and today's price day (Europe/Berlin) read in
 * the same statement – one snapshot, so a stamp built from them never claims newer data than the totals saw.
 * Punchout sessions' carts are left out, except the one of `punchoutContextId` (the calling session's own cart).
 */
export async function overviewRows(
  c: Queryable,
  bpNumber: string,
  punchoutContextId: string | null = null,
): Promise<OverviewRow[]> {
  const { rows } = await c.query<OverviewRow>(
    `SELECT c.id, c.name, c.is_default, c.created_at, t.content_version, t.stamp, t.item_count, t.total_net_value,
            (SELECT version FROM catalogue_state) AS catalogue_version,
            (now() AT TIME ZONE 'Europe/Berlin')::date::text AS price_day
       FROM carts c LEFT JOIN cart_totals t ON t.cart_id = c.id
      WHERE c.bp_number = $1 AND (c.punchout_context_id IS NULL OR c.punchout_context_id = $2::uuid)
      ORDER BY c.created_at, c.id`,
    [bpNumber, punchoutContextId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The lines of several carts (what their totals need), by cart. */
export async function linesOfCarts(c: Queryable, cartIds: number[]) {
  const byCart = new Map<number, { product_instance_id: string; supplier_bp_number: string; quantity: number }[]>();
  if (!cartIds.length) return byCart;
  const { rows } = await c.query<{
    cart_id: string;
    product_instance_id: string;
    supplier_bp_number: string;
    quantity: string;
  }>(
    `SELECT cart_id, product_instance_id, supplier_bp_number, quantity FROM cart_items
      WHERE cart_id = ANY($1::bigint[]) ORDER BY cart_id, id`,
    [cartIds],
  );
  for (const r of rows) {
    const id = Number(r.cart_id);
    let lines = byCart.get(id);
    if (!lines) byCart.set(id, (lines = []));
    lines.push({
      product_instance_id: r.product_instance_id,
      supplier_bp_number: r.supplier_bp_number,
      quantity: Number(r.quantity),
    });
  }
  return byCart;
}

/** Stores recomputed totals with the stamp they were computed under (one statement for all carts). */
export async function storeTotals(
  c: Queryable,
  totals: { cartId: number; stamp: string; itemCount: number; totalNetValue: number }[],
) {
  if (!totals.length) return;
  await c.query(
    `UPDATE cart_totals t SET stamp = x.stamp, item_count = x.item_count, total_net_value = x.total
       FROM unnest($1::bigint[], $2::text[], $3::int[], $4::numeric[]) AS x(cart_id, stamp, item_count, total)
      WHERE t.cart_id = x.cart_id`,
    [
      totals.map((t) => t.cartId),
      totals.map((t) => t.stamp),
      totals.map((t) => t.itemCount),
      totals.map((t) => t.totalNetValue),
    ],
  );
}

/** Offers from the catalogue tables with product, brand, manufacturer and supplier, price valid today (cart lines). */
export async function offerSnapshotRows(c: Queryable, productInstanceIds: string[]) {
  const { rows } = await c.query({
    // Named: prepared once per connection. The names of brand, manufacturer, supplier and the unit rule are scalar
    // subqueries, not joins: each is a key lookup along a NOT NULL foreign key (or a left join on a key), so the rows
    // are the same, but the planner no longer searches the join orders of eight tables on every call (~3 ms of
    // planning per checkout, four times the statement's execution: bench:checkout with track_planning).
    name: 'offer-snapshot-rows',
    text: `SELECT o.product_instance_id, o.supplier_bp_number, o.supplier_pid, o.unit_code, ${todayPriceColumns('o')},
            o.price_quantity_unit, o.min_order_quantity,
            EXISTS (SELECT 1 FROM units u WHERE u.code = o.unit_code) AS unit_known,
            p.id AS product_no, p.manufacturer_id, p.manufacturer_pid, p.product_name, p.product_descr, p.media,
            (SELECT m.name FROM manufacturers m WHERE m.manufacturer_id = p.manufacturer_id) AS manufacturer_name,
            (SELECT br.name FROM brands br WHERE br.brand_no = p.brand_no) AS brand_name,
            (SELECT sb.name FROM business_partners sb WHERE sb.bp_number = o.supplier_bp_number) AS supplier_name,
            (SELECT s.required_onboarding_form FROM suppliers s WHERE s.bp_number = o.supplier_bp_number)
              AS required_onboarding_form,
            (SELECT s.hide_additional_info FROM suppliers s WHERE s.bp_number = o.supplier_bp_number) AS hide_additional_info
       FROM product_offers o ${todayPriceJoin('o')}
       JOIN products p ON p.id = o.product_no
      WHERE o.product_instance_id = ANY($1)`,
    values: [productInstanceIds],
  });
  return rows;
}

/** The overview's lean variant: offer prices, units and the buyer's relation in one statement. */
export async function offerPricingRows(c: Queryable, productInstanceIds: string[], buyerBpNumber: string) {
  const { rows } = await c.query({
    // Named like offerSnapshotRows: its plan is made once per connection.
    name: 'offer-pricing-rows',
    text: `SELECT o.product_instance_id, o.supplier_bp_number, ${todayPriceColumns('o')},
            o.price_quantity_unit, o.min_order_quantity, (u.code IS NOT NULL) AS unit_known,
            sc.relation_status_id, sc.is_active
       FROM product_offers o ${todayPriceJoin('o')}
       LEFT JOIN units u ON u.code = o.unit_code
       LEFT JOIN supplier_customers sc ON sc.buyer_bp_number = $2 AND sc.supplier_bp_number = o.supplier_bp_number
      WHERE o.product_instance_id = ANY($1)`,
    values: [productInstanceIds, buyerBpNumber],
  });
  return rows;
}

/** Serialises cart creation per partner (transaction lock) and counts the partner's carts. */
export async function lockAndCountCarts(c: Queryable, bpNumber: string): Promise<number> {
  await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`carts:${bpNumber}`]);
  const { rows } = await c.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM carts WHERE bp_number = $1 AND punchout_context_id IS NULL',
    [bpNumber],
  );
  return rows[0].n;
}

/** A new cart; null when the partner has a cart of that name (case-insensitive). */
export async function insertCart(
  c: Queryable,
  bpNumber: string,
  name: string,
  isDefault: boolean,
  userId: string,
): Promise<number | null> {
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO carts (bp_number, name, is_default, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bp_number, lower(name)) DO NOTHING RETURNING id`,
    [bpNumber, name, isDefault, userId],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** The partner's first cart ('Warenkorb', default) unless it has one. */
export async function insertFirstCart(c: Queryable, bpNumber: string, userId: string): Promise<void> {
  await c.query(
    `INSERT INTO carts (bp_number, name, is_default, created_by) SELECT $1, 'Warenkorb', true, $2
      WHERE NOT EXISTS (SELECT 1 FROM carts WHERE bp_number = $1 AND punchout_context_id IS NULL) ON CONFLICT DO NOTHING`,
    [bpNumber, userId],
  );
}

export async function defaultCartId(c: Queryable, bpNumber: string): Promise<number> {
  const { rows } = await c.query<{ id: number }>('SELECT id FROM carts WHERE bp_number = $1 AND is_default', [
    bpNumber,
  ]);
  return Number(rows[0].id);
}

/** Renames a cart (a name the partner uses already fails with 23505). */
export async function renameCart(c: Queryable, bpNumber: string, cartId: number, name: string): Promise<void> {
  await c.query('UPDATE carts SET name = $3, updated_at = now() WHERE id = $1 AND bp_number = $2', [
    cartId,
    bpNumber,
    name,
  ]);
}

export async function setCartDetails(
  c: Queryable,
  bpNumber: string,
  cartId: number,
  details: { projectId: number | null; deliveryAddressId: number | null; deliveryDate: string | null },
): Promise<void> {
  await c.query(
    `UPDATE carts SET project_id = $3, delivery_address_id = $4, delivery_date = $5, updated_at = now() WHERE id = $1 AND bp_number = $2`,
    [cartId, bpNumber, details.projectId, details.deliveryAddressId, details.deliveryDate],
  );
}

export async function deleteCart(c: Queryable, cartId: number): Promise<void> {
  await c.query('DELETE FROM carts WHERE id = $1', [cartId]);
}

export async function partnerHasProject(c: Queryable, bpNumber: string, projectId: number): Promise<boolean> {
  const { rowCount } = await c.query('SELECT 1 FROM projects WHERE id = $1 AND bp_number = $2', [projectId, bpNumber]);
  return Boolean(rowCount);
}

export async function partnerHasAddress(c: Queryable, bpNumber: string, addressId: number): Promise<boolean> {
  const { rowCount } = await c.query('SELECT 1 FROM delivery_addresses WHERE id = $1 AND bp_number = $2', [
    addressId,
    bpNumber,
  ]);
  return Boolean(rowCount);
}

/** Offers whose supplier article number, GTIN, manufacturer or catalogue article number is one of the codes. */
export async function matchArticleCodes(c: Queryable, codes: string[]) {
  const { rows } = await c.query<{
    code: string;
    product_instance_id: string;
    gtin: string | null;
    quantity_interval: string | null;
  }>(
    `WITH q(code) AS (SELECT unnest($1::text[])),
          hits(code, product_no, instance) AS (
            SELECT q.code, p.id, NULL::text FROM q JOIN products p ON p.gtin = q.code
            UNION SELECT q.code, p.id, NULL FROM q JOIN products p ON p.manufacturer_pid_norm = q.code
            UNION SELECT q.code, p.id, NULL FROM q JOIN products p ON p.article_number_catalogue_norm = q.code
            UNION SELECT q.code, o.product_no, o.product_instance_id FROM q JOIN product_offers o ON o.supplier_pid_norm = q.code)
     SELECT DISTINCT h.code, o.product_instance_id, p.gtin, o.quantity_interval
       FROM hits h JOIN products p ON p.id = h.product_no
       JOIN product_offers o ON o.product_no = h.product_no AND (h.instance IS NULL OR o.product_instance_id = h.instance)`,
    [codes],
  );
  return rows;
}

/**
 * Adds quantities to a cart (locked first): an article already in the cart gets the quantity added, the others
 * become new items.
 */
export async function addQuantities(
  c: Queryable,
  cartId: number,
  add: { productInstanceIds: string[]; supplierBpNumbers: string[]; articleNumbers: string[]; quantities: number[] },
): Promise<void> {
  await c.query('SELECT id FROM carts WHERE id = $1 FOR UPDATE', [cartId]);
  await c.query(
    `UPDATE cart_items i SET quantity = i.quantity + t.quantity, updated_at = now()
       FROM unnest($2::text[], $3::numeric[]) AS t(iid, quantity)
      WHERE i.cart_id = $1 AND i.product_instance_id = t.iid`,
    [cartId, add.productInstanceIds, add.quantities],
  );
  await c.query(
    `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
     SELECT $1, t.iid, t.supplier, t.article, t.quantity FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[]) AS t(iid, supplier, article, quantity)
      WHERE NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = $1 AND i.product_instance_id = t.iid)`,
    [cartId, add.productInstanceIds, add.supplierBpNumbers, add.articleNumbers, add.quantities],
  );
  await c.query('UPDATE carts SET updated_at = now() WHERE id = $1', [cartId]);
}

/** What the cart guards need of a partner's cart (ids-cart-scope.ts); null: no such cart. */
export interface CartScopeRow {
  id: number;
  is_default: boolean;
  punchout_context_id: string | null;
  read_only: boolean;
}

export async function cartScopeOf(c: Queryable, bpNumber: string, cartId: number): Promise<CartScopeRow | null> {
  const { rows } = await c.query<CartScopeRow>(
    'SELECT id, is_default, punchout_context_id::text, read_only FROM carts WHERE id = $1 AND bp_number = $2',
    [cartId, bpNumber],
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : null;
}

/** The same for the cart a partner's cart item lies in. */
export async function cartScopeOfItem(c: Queryable, bpNumber: string, itemId: number): Promise<CartScopeRow | null> {
  const { rows } = await c.query<CartScopeRow>(
    `SELECT c.id, c.is_default, c.punchout_context_id::text, c.read_only
       FROM cart_items i JOIN carts c ON c.id = i.cart_id WHERE i.id = $1 AND c.bp_number = $2`,
    [itemId, bpNumber],
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : null;
}

/** A punchout session's own cart, if it has one. */
export async function sessionCartOf(c: Queryable, contextId: string): Promise<CartScopeRow | null> {
  const { rows } = await c.query<CartScopeRow>(
    `SELECT id, is_default, punchout_context_id::text, read_only FROM carts WHERE punchout_context_id = $1::uuid`,
    [contextId],
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : null;
}

/**
 * A punchout session's own cart, created with the session (in its transaction): never the default cart, named after
 * the session so that it never takes a name the partner uses.
 */
export async function insertSessionCart(
  c: Queryable,
  s: { bpNumber: string; userId: string; contextId: string; readOnly: boolean },
): Promise<number> {
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO carts (bp_number, name, is_default, created_by, punchout_context_id, read_only)
     VALUES ($1, 'Punchout ' || $3, false, $2, $3::uuid, $4) RETURNING id`,
    [s.bpNumber, s.userId, s.contextId, s.readOnly],
  );
  return Number(rows[0].id);
}
