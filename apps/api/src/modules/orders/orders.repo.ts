import { customerOrderStatusLabels, supplierOrderStatusLabels } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { SqlWhere } from '../../db/sql-params.ts';
import { supplierOrderDetails } from '../supplier-orders/index.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * A customer order's net value as it stands (alias co): the ordered total moved by each supplier's confirmation
 * (confirmed total − ordered value of its supplier orders; 0 where none confirmed yet).
 */
const currentTotal = `(co.total_net + COALESCE((SELECT sum(so.current_net_value - so.net_value) FROM supplier_orders so
   WHERE so.customer_order_id = co.id), 0))`;

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (m) => `\\${m}`);

/**
 * A customer order (alias co) matching a search text: its number or reference, or any of its lines' article number,
 * manufacturer number, name, project code or project description (any case, anywhere in the text).
 */
const orderSearchCondition = `(co.customer_order_number ILIKE ? OR co.order_reference ILIKE ? OR EXISTS (
    SELECT 1 FROM supplier_orders sos JOIN order_lines l ON l.supplier_order_id = sos.id
     WHERE sos.customer_order_id = co.id AND (l.article_number ILIKE ? OR l.producer_number ILIKE ? OR l.name ILIKE ?
       OR l.confirmed_article_number ILIKE ? OR l.project_code ILIKE ? OR l.project_description ILIKE ?)))`;

export interface CustomerOrderFilter {
  buyerBpNumber?: string;
  year?: number;
  /** Part of the order number, the reference, an article number or name, or a project code or description. */
  search?: string;
  buyerName?: string;
  statusId?: number;
  page: number;
  pageSize: number;
}

/** Customer orders with the list envelope of the spec (filters offered from the unfiltered scope). */
export async function listCustomerOrders(db: Db, f: CustomerOrderFilter) {
  // The scope (whose orders) offers the filter values; the filters narrow the rows.
  const scope = new SqlWhere();
  if (f.buyerBpNumber) scope.and('co.bp_number = ?', f.buyerBpNumber);
  const where = scope.copy();
  if (f.year) where.and(`extract(year FROM co.placed_at AT TIME ZONE 'Europe/Berlin')::int = ?`, f.year);
  if (f.buyerName) where.and('b.name = ?', f.buyerName);
  if (f.statusId) where.and('co.status_id = ?', f.statusId);
  if (f.search) where.and(orderSearchCondition, `%${escapeLike(f.search)}%`);
  const from = 'FROM customer_orders co JOIN business_partners b ON b.bp_number = co.bp_number';
  const total = (await db.$client.query<{ n: number }>(`SELECT count(*)::int AS n ${from} ${where.sql}`, where.values))
    .rows[0].n;
  const page = where.page(f.page, f.pageSize);
  const { rows } = await db.$client.query(
    `SELECT co.*, ${currentTotal} AS current_total_net, b.name AS buyer_name ${from} ${where.sql} ORDER BY co.placed_at DESC, co.id DESC ${page.sql}`,
    page.values,
  );
  const years = await db.$client.query<{ y: number }>(
    `SELECT DISTINCT extract(year FROM co.placed_at AT TIME ZONE 'Europe/Berlin')::int AS y ${from} ${scope.sql} ORDER BY y DESC`,
    scope.values,
  );
  const buyers = await db.$client.query<{ name: string }>(
    `SELECT DISTINCT b.name ${from} ${scope.sql} ORDER BY b.name`,
    scope.values,
  );
  return {
    items: rows.map((r) => ({
      orderNumber: r.customer_order_number,
      orderDate: iso(r.placed_at),
      dispatchTo: r.dispatch_to,
      customerOrderStatusId: r.status_id,
      totalValueExcludingVat: Number(r.current_total_net),
      orderedValueExcludingVat: Number(r.total_net),
      buyerName: r.buyer_name,
      buyerBpNumber: r.bp_number,
    })),
    currentPage: f.page,
    pageSize: f.pageSize,
    totalCount: total,
    totalPages: Math.max(1, Math.ceil(total / f.pageSize)),
    availableBuyerNames: buyers.rows.map((b) => b.name),
    availableOrderStatuses: Object.entries(customerOrderStatusLabels).map(([id, name]) => ({ id: Number(id), name })),
    availableOrderYears: years.rows.map((y) => y.y),
    availableSellers: [] as { id: string; name: string }[],
  };
}

export interface SupplierOrderFilter {
  supplierBpNumber?: string;
  year?: number;
  buyerName?: string;
  statusId?: number;
  page: number;
  pageSize: number;
}

export async function listSupplierOrders(db: Db, f: SupplierOrderFilter) {
  const where = new SqlWhere();
  if (f.supplierBpNumber) where.and('so.supplier_bp_number = ?', f.supplierBpNumber);
  if (f.year) where.and(`extract(year FROM so.placed_at AT TIME ZONE 'Europe/Berlin')::int = ?`, f.year);
  if (f.buyerName) where.and('b.name = ?', f.buyerName);
  if (f.statusId) where.and('so.status_id = ?', f.statusId);
  const from = `FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
    JOIN business_partners b ON b.bp_number = so.buyer_bp_number JOIN business_partners s ON s.bp_number = so.supplier_bp_number`;
  const total = (await db.$client.query<{ n: number }>(`SELECT count(*)::int AS n ${from} ${where.sql}`, where.values))
    .rows[0].n;
  const page = where.page(f.page, f.pageSize);
  const { rows } = await db.$client.query(
    `SELECT so.*, co.customer_order_number, b.name AS buyer_name, s.name AS supplier_name ${from} ${where.sql}
      ORDER BY so.placed_at DESC, so.id DESC ${page.sql}`,
    page.values,
  );
  const years = await db.$client.query<{ y: number }>(
    `SELECT DISTINCT extract(year FROM so.placed_at AT TIME ZONE 'Europe/Berlin')::int AS y ${from} ORDER BY y DESC`,
  );
  const buyers = await db.$client.query<{ name: string }>(`SELECT DISTINCT b.name ${from} ORDER BY b.name`);
  const sellers = await db.$client.query<{ bp_number: string; name: string }>(
    'SELECT b.bp_number, b.name FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number ORDER BY b.name',
  );
  return {
    items: rows.map((r) => ({
      orderNumber: r.supplier_order_number,
      customerOrderNumber: r.customer_order_number,
      orderDate: iso(r.placed_at),
      supplierId: r.supplier_bp_number,
      supplierName: r.supplier_name,
      buyerName: r.buyer_name,
      buyerBpNumber: r.buyer_bp_number,
      supplierCustomerId: r.supplier_customer_number,
      supplierOrderStatusId: r.status_id,
      totalValueExcludingVat: Number(r.current_net_value),
      orderedValueExcludingVat: Number(r.net_value),
    })),
    currentPage: f.page,
    pageSize: f.pageSize,
    totalCount: total,
    totalPages: Math.max(1, Math.ceil(total / f.pageSize)),
    availableBuyerNames: buyers.rows.map((b) => b.name),
    availableOrderStatuses: Object.entries(supplierOrderStatusLabels).map(([id, name]) => ({ id: Number(id), name })),
    availableOrderYears: years.rows.map((y) => y.y),
    availableSellers: sellers.rows.map((s) => ({ id: s.bp_number, name: s.name })),
  };
}

/** A customer order with its supplier orders and lines; `buyerBpNumber` scopes it (undefined for staff). */
export async function customerOrderDetails(db: Db, orderNumber: string, buyerBpNumber?: string) {
  const { rows } = await db.$client.query(
    `SELECT co.*, ${currentTotal} AS current_total_net FROM customer_orders co
      WHERE co.customer_order_number = $1 ${buyerBpNumber ? 'AND co.bp_number = $2' : ''}`,
    buyerBpNumber ? [orderNumber, buyerBpNumber] : [orderNumber],
  );
  const co = rows[0];
  if (!co) return null;
  const ids = (
    await db.$client.query<{ id: number }>('SELECT id FROM supplier_orders WHERE customer_order_id = $1', [co.id])
  ).rows.map((r) => Number(r.id));
  return {
    customerOrderNumber: co.customer_order_number,
    orderPlaced: iso(co.placed_at),
    orderTotal: Number(co.current_total_net),
    orderedTotal: Number(co.total_net),
    deliveryCostTotal: Number(co.delivery_cost_total),
    customerOrderStatus: co.status_id,
    customerAddress: co.customer_address,
    dispatchTo: co.dispatch_to,
    buyerBpNumber: co.bp_number,
    dateModified: iso(co.modified_at),
    orderReference: co.order_reference ?? null,
    orderNote: co.order_note ?? null,
    supplierOrdersDetails: await supplierOrderDetails(db.$client, ids),
  };
}

/** One supplier order; `supplierBpNumber` scopes it to a seller (undefined for staff). */
export async function supplierOrderByNumber(db: Db, orderNumber: string, supplierBpNumber?: string) {
  const { rows } = await db.$client.query<{ id: number }>(
    `SELECT id FROM supplier_orders WHERE supplier_order_number = $1 ${supplierBpNumber ? 'AND supplier_bp_number = $2' : ''}`,
    supplierBpNumber ? [orderNumber, supplierBpNumber] : [orderNumber],
  );
  if (!rows[0]) return null;
  return (await supplierOrderDetails(db.$client, [Number(rows[0].id)]))[0];
}

/** Who may download an order line's attachment: buyers their partner's orders, sellers their supplier's, staff all. */
export type AttachmentScope = { buyerBpNumber: string } | { supplierBpNumber: string } | 'all';

/** One attachment of an order line, or null when it does not exist or lies outside the scope. */
export async function orderLineAttachment(
  db: Db,
  ref: { supplierOrderNumber: string; lineId: number; id: number },
  scope: AttachmentScope,
) {
  const where = new SqlWhere()
    .and('a.id = ?', ref.id)
    .and('l.id = ?', ref.lineId)
    .and('so.supplier_order_number = ?', ref.supplierOrderNumber);
  if (scope !== 'all') {
    if ('buyerBpNumber' in scope) where.and('so.buyer_bp_number = ?', scope.buyerBpNumber);
    else where.and('so.supplier_bp_number = ?', scope.supplierBpNumber);
  }
  const { rows } = await db.$client.query<{
    file_name: string;
    content_type: string;
    content: Buffer | null;
    storage_key: string | null;
  }>(
    `SELECT a.file_name, a.content_type, a.content, a.storage_key FROM order_line_attachments a JOIN order_lines l ON l.id = a.order_line_id
     JOIN supplier_orders so ON so.id = l.supplier_order_id
    ${where.sql}`,
    where.values,
  );
  return rows[0] ?? null;
}

/** An order line as 'Erneut bestellen' reads it: the offer it was ordered from and the quantity ordered. */
export interface ReorderLineRow {
  product_instance_id: string;
  article_number: string;
  name: string;
  quantity: string;
  supplier_name: string;
  comment: string | null;
}

/** The ordered lines of a customer order of the partner (lines the supplier added are not the buyer's). */
export async function reorderLines(db: Db, orderNumber: string, buyerBpNumber: string) {
  const { rows } = await db.$client.query<ReorderLineRow>(
    `SELECT l.product_instance_id, l.article_number, l.name, l.quantity, s.name AS supplier_name, l.comment
       FROM customer_orders co JOIN supplier_orders so ON so.customer_order_id = co.id
       JOIN order_lines l ON l.supplier_order_id = so.id JOIN business_partners s ON s.bp_number = so.supplier_bp_number
      WHERE co.customer_order_number = $1 AND co.bp_number = $2 AND l.quantity > 0
        AND l.confirmation_kind IS DISTINCT FROM 'added'
      ORDER BY s.name, so.id, l.line_no`,
    [orderNumber, buyerBpNumber],
  );
  return rows;
}

/** Whether the partner has this customer order (another partner's order is a 404). */
export async function customerOrderExists(db: Db, orderNumber: string, buyerBpNumber: string) {
  const { rowCount } = await db.$client.query(
    'SELECT 1 FROM customer_orders WHERE customer_order_number = $1 AND bp_number = $2',
    [orderNumber, buyerBpNumber],
  );
  return rowCount === 1;
}

/** The id of a supplier order of a customer order of the partner, or null. */
export async function supplierOrderIdOfCustomerOrder(
  db: Db,
  ref: { customerOrderNumber: string; supplierOrderNumber: string },
  buyerBpNumber: string | undefined,
) {
  const { rows } = await db.$client.query<{ id: string }>(
    `SELECT so.id FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
      WHERE co.customer_order_number = $1 AND so.supplier_order_number = $2 ${buyerBpNumber ? 'AND co.bp_number = $3' : ''}`,
    buyerBpNumber
      ? [ref.customerOrderNumber, ref.supplierOrderNumber, buyerBpNumber]
      : [ref.customerOrderNumber, ref.supplierOrderNumber],
  );
  return rows[0] ? Number(rows[0].id) : null;
}
