import type { Queryable } from '../../db/queryable.ts';

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
  }>(
    `SELECT s.bp_number, b.name, s.delivery_cost, s.free_delivery_threshold FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number
      WHERE s.bp_number = ANY($1)`,
    [supplierBpNumbers],
  );
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
    `UPDATE carts SET is_default = true WHERE id = (SELECT id FROM carts WHERE bp_number = $1 ORDER BY created_at, id LIMIT 1)
       AND NOT EXISTS (SELECT 1 FROM carts WHERE bp_number = $1 AND is_default)`,
    [bpNumber],
  );
}

/**
 * Empties a cart – all items, or only the given ones (those a checkout ordered) – and clears its project,
 * address and date. After a checkout it remembers the order (repeated checkout within a short window).
 */
export async function resetCart(c: Queryable, cartId: number, after?: { orderNumber: string; itemIds: number[] }) {
  if (after) await c.query('DELETE FROM cart_items WHERE cart_id = $1 AND id = ANY($2)', [cartId, after.itemIds]);
  else await c.query('DELETE FROM cart_items WHERE cart_id = $1', [cartId]);
  await c.query(
    `UPDATE carts SET project_id = NULL, delivery_address_id = NULL, delivery_date = NULL, updated_at = now(),
            last_order_number = COALESCE($2, last_order_number),
            last_checkout_at = CASE WHEN $2::text IS NULL THEN last_checkout_at ELSE now() END
      WHERE id = $1`,
    [cartId, after?.orderNumber ?? null],
  );
}

/** Carts of a partner with their items in one statement (the cart overview). */
export async function cartsWithItems(c: Queryable, bpNumber: string) {
  const { rows } = await c.query<
    CartRow & { items: { product_instance_id: string; supplier_bp_number: string; quantity: number }[] }
  >(
    `SELECT c.*, COALESCE(
              json_agg(json_build_object('product_instance_id', i.product_instance_id, 'supplier_bp_number', i.supplier_bp_number,
                                         'quantity', i.quantity) ORDER BY i.id) FILTER (WHERE i.id IS NOT NULL), '[]') AS items
       FROM carts c LEFT JOIN cart_items i ON i.cart_id = c.id
      WHERE c.bp_number = $1
      GROUP BY c.id ORDER BY c.created_at, c.id`,
    [bpNumber],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
