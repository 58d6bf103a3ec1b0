/** SQL of the checkout: what an order snapshots (partner, addresses, projects, customer numbers) and its rows. */
import type { Queryable } from '../../db/queryable.ts';
import type { BusinessPartnerRow } from '../profile/index.ts';
import { transmissionRowsOf } from '../transmission/index.ts';

/** A supplier's delivery cost and the order value from which delivery is free. */
export interface SupplierDeliverySettings {
  deliveryCost: number;
  freeDeliveryThreshold: number;
}

/**
 * The ordering partner, its customer numbers at the given suppliers and those suppliers' delivery settings, in one
 * round trip (the checkout's transaction waits for each, holding the cart's lock); undefined when the partner does not
 * exist.
 */
export async function partnerWithCustomerNumbers(c: Queryable, bpNumber: string, supplierBpNumbers: string[]) {
  const { rows } = await c.query<
    BusinessPartnerRow & {
      customer_numbers: Record<string, string | null>;
      supplier_settings: Record<string, SupplierDeliverySettings>;
    }
  >({
    // The checkout's statements are named: prepared once per connection instead of planned on every checkout.
    name: 'checkout-partner',
    // The partner's columns by name: a prepared statement whose result columns changed (a column added to the table by
    // a migration on another node) would fail until the connection closes.
    text: `SELECT b.bp_number, b.name, b.official_company_name, b.street, b.house_number, b.postal_code, b.city, b.country,
            b.email, b.phone_number, b.fax_number, b.website, b.tax_number, b.vat_id, b.organisation_type, b.is_supplier,
            b.created_at, (SELECT coalesce(jsonb_object_agg(sc.supplier_bp_number, sc.supplier_customer_number), '{}'::jsonb)
                    FROM supplier_customers sc WHERE sc.buyer_bp_number = $1 AND sc.supplier_bp_number = ANY($2)) AS customer_numbers,
            (SELECT coalesce(jsonb_object_agg(s.bp_number, jsonb_build_object('deliveryCost', s.delivery_cost,
                                                 'freeDeliveryThreshold', s.free_delivery_threshold)), '{}'::jsonb)
               FROM suppliers s WHERE s.bp_number = ANY($2)) AS supplier_settings
       FROM business_partners b WHERE b.bp_number = $1`,
    values: [bpNumber, supplierBpNumbers],
  });
  if (!rows[0]) return undefined;
  const { customer_numbers: numbers, supplier_settings: settings, ...partner } = rows[0];
  return {
    partner: partner as BusinessPartnerRow,
    customerNumbers: new Map(Object.entries(numbers)),
    // numeric columns as JSON numbers; Number() as the cart's reading of them (carts.repo supplierSettings)
    supplierSettings: new Map(
      Object.entries(settings).map(([bp, v]) => [
        bp,
        { deliveryCost: Number(v.deliveryCost), freeDeliveryThreshold: Number(v.freeDeliveryThreshold) },
      ]),
    ),
  };
}

export async function findAddressRow(c: Queryable, id: number) {
  return (await c.query('SELECT * FROM delivery_addresses WHERE id = $1', [id])).rows[0];
}

/** The customer order as the checkout writes it (numbered KB-<year>-<sequence> by the insert). */
export interface CustomerOrderRecord {
  year: number;
  bpNumber: string;
  userId: string;
  cartId: number;
  cartName: string;
  totalNet: number;
  totalDelivery: number;
  orderReference: string | null;
  orderNote: string | null;
  dispatchTo: string;
  customerAddress: Record<string, unknown>;
}

/** Per supplier (in this order) its customer number, net value and delivery cost. */
export interface SupplierOrderRecords {
  suppliers: string[];
  customerNumbers: (string | null)[];
  nets: number[];
  deliveryCosts: number[];
}

/**
 * The customer order, all its supplier orders and their transmission outbox rows in one statement (one round trip
 * while the checkout's transaction holds the cart): the customer order numbered KB-<year>-<sequence>, the supplier
 * orders LB-<sequence> in the given order. The foreign keys to the orders of the WITH are checked at the statement's
 * end, when those exist. An order to a supplier in communication test (supplier status 3) is a test order from its
 * first row on: marked by a second UPDATE, every checkout paid another statement and a second round of dashboard
 * roll-up deltas for its orders.
 */
export async function insertCustomerAndSupplierOrders(
  c: Queryable,
  order: CustomerOrderRecord,
  suppliers: SupplierOrderRecords,
): Promise<{ id: number; number: string; supplierOrders: { id: number; supplierBpNumber: string; number: string }[] }> {
  const { rows } = await c.query<{
    id: string;
    supplier_bp_number: string;
    supplier_order_number: string;
    customer_order_id: string;
    customer_order_number: string;
  }>({
    name: 'checkout-orders',
    text: `WITH customer_order AS (
       INSERT INTO customer_orders (customer_order_number, bp_number, user_id, cart_id, cart_name, total_net, delivery_cost_total,
         dispatch_to, customer_address, order_reference, order_note)
       VALUES ('KB-' || $1 || '-' || nextval('customer_order_number_seq'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING id, customer_order_number),
     supplier_order AS (
       INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number,
         supplier_customer_number, net_value, delivery_cost, is_test)
       SELECT 'LB-' || nextval('supplier_order_number_seq'), co.id, s.bp, $2, s.customer_number, s.net, s.delivery,
              coalesce((SELECT sup.supplier_status_id = 3 FROM suppliers sup WHERE sup.bp_number = s.bp), false)
         FROM customer_order co,
              unnest($12::text[], $13::text[], $14::numeric[], $15::numeric[]) WITH ORDINALITY AS s(bp, customer_number, net, delivery, n)
        ORDER BY s.n RETURNING id, supplier_bp_number, supplier_order_number),
     transmission AS (${transmissionRowsOf('supplier_order')})
     SELECT so.id, so.supplier_bp_number, so.supplier_order_number, co.id AS customer_order_id, co.customer_order_number
       FROM customer_order co LEFT JOIN supplier_order so ON true`,
    values: [
      order.year,
      order.bpNumber,
      order.userId,
      order.cartId,
      order.cartName,
      order.totalNet,
      order.totalDelivery,
      order.dispatchTo,
      JSON.stringify(order.customerAddress),
      order.orderReference,
      order.orderNote,
      suppliers.suppliers,
      suppliers.customerNumbers,
      suppliers.nets,
      suppliers.deliveryCosts,
    ],
  });
  return {
    id: Number(rows[0].customer_order_id),
    number: rows[0].customer_order_number,
    supplierOrders: rows
      .filter((r) => r.id != null)
      .map((r) => ({ id: Number(r.id), supplierBpNumber: r.supplier_bp_number, number: r.supplier_order_number })),
  };
}

/** The lines' projects; no statement when no line has one (the checkout's transaction waits for each round trip). */
export async function projectRows(c: Queryable, ids: number[]) {
  if (!ids.length) return [];
  return (await c.query('SELECT id, code, description FROM projects WHERE id = ANY($1)', [ids])).rows;
}

/** The lines' delivery addresses; no statement when no line has one. */
export async function addressRows(c: Queryable, ids: number[]) {
  if (!ids.length) return [];
  return (await c.query('SELECT * FROM delivery_addresses WHERE id = ANY($1)', [ids])).rows;
}

/** One order line's snapshot as the checkout writes it (the cart item it came from names its attachments). */
export interface OrderLineRecord {
  supplier_order_id: number;
  line_no: number;
  cart_item_id: number;
  product_instance_id: string;
  article_number: string;
  producer_number: string | null;
  manufacturer_name: string | null;
  name: string | null;
  description: string | null;
  unit_price: number | null;
  price_basis: number;
  min_quantity: number;
  quantity: number;
  quantity_price: number | null;
  unit_code: string | null;
  price_on_request: boolean;
  delivery_date: string | null;
  project_code: string | null;
  project_description: string | null;
  comment: string | null;
  delivery_address: Record<string, unknown> | null;
  image_url: string | null;
}

/** The columns of order_lines the checkout writes, with the array type each is bound as. */
const LINE_COLUMNS: [keyof OrderLineRecord, string][] = [
  ['supplier_order_id', 'bigint'],
  ['line_no', 'int'],
  ['cart_item_id', 'bigint'],
  ['product_instance_id', 'text'],
  ['article_number', 'text'],
  ['producer_number', 'text'],
  ['manufacturer_name', 'text'],
  ['name', 'text'],
  ['description', 'text'],
  ['unit_price', 'numeric'],
  ['price_basis', 'numeric'],
  ['min_quantity', 'numeric'],
  ['quantity', 'numeric'],
  ['quantity_price', 'numeric'],
  ['unit_code', 'text'],
  ['price_on_request', 'boolean'],
  ['delivery_date', 'date'],
  ['project_code', 'text'],
  ['project_description', 'text'],
  ['comment', 'text'],
  ['delivery_address', 'jsonb'],
  ['image_url', 'text'],
];
const WRITTEN = LINE_COLUMNS.filter(([name]) => name !== 'cart_item_id').map(([name]) => name);

/**
 * All line snapshots and their attachments in one statement, the columns bound as one array each (unnest): the
 * lines' ids never travel to the API and back. A stored file is never changed, so a line names the same file as the
 * cart item it came from (storage_key); the sweep removes a file only when no row of either names it, so deleting
 * the cart item later never takes the order's file. Older attachments copy their bytes.
 */
export async function insertOrderLinesWithAttachments(c: Queryable, lines: OrderLineRecord[]) {
  const values = LINE_COLUMNS.map(([name, type]) =>
    type === 'jsonb'
      ? lines.map((l) => (l[name] == null ? null : JSON.stringify(l[name])))
      : lines.map((l) => l[name] ?? null),
  );
  await c.query({
    name: 'checkout-order-lines',
    text: `WITH input AS (SELECT * FROM unnest(${LINE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
                      AS x(${LINE_COLUMNS.map(([name]) => name).join(', ')})),
     lines AS (INSERT INTO order_lines (${WRITTEN.join(', ')}) SELECT ${WRITTEN.join(', ')} FROM input
                 RETURNING id, supplier_order_id, line_no)
     INSERT INTO order_line_attachments (order_line_id, file_name, content_type, size_bytes, content, storage_key)
     SELECT lines.id, a.file_name, a.content_type, a.size_bytes, a.content, a.storage_key
       FROM lines JOIN input USING (supplier_order_id, line_no)
       JOIN cart_item_attachments a ON a.cart_item_id = input.cart_item_id ORDER BY a.id`,
    values,
  });
}
