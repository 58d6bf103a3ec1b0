import type { ConfirmableLineRow } from './confirmation-view.ts';
import type { Queryable } from '../../db/queryable.ts';
import { SqlWhere } from '../../db/sql-params.ts';

export interface OverviewFilter {
  supplierBpNumber: string;
  status?: number;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  page: number;
  pageSize: number;
}

/** The seller's order list: own supplier only, dates as calendar days in Europe/Berlin. */
export async function overview(db: Queryable, f: OverviewFilter) {
  const where = new SqlWhere().and('so.supplier_bp_number = ?', f.supplierBpNumber);
  if (f.status) where.and('so.status_id = ?', f.status);
  if (f.dateFrom) where.and(`so.placed_at >= (?::date)::timestamp AT TIME ZONE 'Europe/Berlin'`, f.dateFrom);
  if (f.dateTo) where.and(`so.placed_at < (?::date + 1)::timestamp AT TIME ZONE 'Europe/Berlin'`, f.dateTo);
  if (f.search)
    where.and(
      '(so.supplier_order_number ILIKE ? OR so.buyer_bp_number ILIKE ? OR so.supplier_customer_number ILIKE ?)',
      `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
  const from = `FROM supplier_orders so JOIN business_partners b ON b.bp_number = so.buyer_bp_number
    JOIN business_partners s ON s.bp_number = so.supplier_bp_number ${where.sql}`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, where.values)).rows[0].n;
  const page = where.page(f.page, f.pageSize);
  const { rows } = await db.query(
    `SELECT so.supplier_order_number, so.placed_at, so.buyer_bp_number, so.supplier_customer_number, so.status_id,
            so.net_value, so.current_net_value, b.name AS buyer_name, s.name AS supplier_name
     ${from} ORDER BY so.placed_at DESC, so.id DESC ${page.sql}`,
    page.values,
  );
  return {
    items: rows.map((r) => ({
      supplierOrderNumber: r.supplier_order_number,
      orderPlaced: new Date(r.placed_at).toISOString(),
      customerName: r.buyer_name,
      customerBpNumber: r.buyer_bp_number,
      supplierCustomerId: r.supplier_customer_number,
      supplierOrderStatusId: r.status_id,
      sellerName: r.supplier_name,
      totalPrice: Number(r.current_net_value),
      orderedTotalPrice: Number(r.net_value),
    })),
    currentPage: f.page,
    pageSize: f.pageSize,
    totalCount: total,
    totalPages: Math.max(1, Math.ceil(total / f.pageSize)),
  };
}

/** Id of an order within a caller's scope (supplier for sellers, buyer for buyers, none for staff), or null. */
export async function orderId(db: Queryable, orderNumber: string, scope: { supplier?: string; buyer?: string } = {}) {
  const where = new SqlWhere().and('supplier_order_number = ?', orderNumber);
  if (scope.supplier) where.and('supplier_bp_number = ?', scope.supplier);
  if (scope.buyer) where.and('buyer_bp_number = ?', scope.buyer);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM supplier_orders ${where.sql}`, where.values);
  return rows[0] ? Number(rows[0].id) : null;
}

/** The rows behind the detail shape of supplier orders (supplier-order-details.ts): orders, lines, files, documents. */
export async function supplierOrderDetailRows(db: Queryable, supplierOrderIds: number[]) {
  const { rows } = await db.query(
    `SELECT so.*, s.name AS supplier_name, co.customer_address, co.order_reference, co.order_note, sup.in_com_protocol_id
       FROM supplier_orders so JOIN business_partners s ON s.bp_number = so.supplier_bp_number
       JOIN customer_orders co ON co.id = so.customer_order_id
       LEFT JOIN suppliers sup ON sup.bp_number = so.supplier_bp_number
      WHERE so.id = ANY($1) ORDER BY s.name, so.id`,
    [supplierOrderIds],
  );
  const lines = await db.query(
    `SELECT *, to_char(delivery_date, 'YYYY-MM-DD') AS delivery_date,
            to_char(confirmed_delivery_date, 'YYYY-MM-DD') AS confirmed_delivery_date
       FROM order_lines WHERE supplier_order_id = ANY($1) ORDER BY supplier_order_id, line_no`,
    [supplierOrderIds],
  );
  const files = await db.query<{ id: number; order_line_id: number; file_name: string; size_bytes: number }>(
    'SELECT a.id, a.order_line_id, a.file_name, a.size_bytes FROM order_line_attachments a JOIN order_lines l ON l.id = a.order_line_id WHERE l.supplier_order_id = ANY($1) ORDER BY a.id',
    [supplierOrderIds],
  );
  const documents = await db.query<{ id: string; supplier_order_id: string; file_name: string; size_bytes: number }>(
    'SELECT id, supplier_order_id, file_name, size_bytes FROM supplier_order_documents WHERE supplier_order_id = ANY($1) ORDER BY id',
    [supplierOrderIds],
  );
  return { rows, lines: lines.rows, files: files.rows, documents: documents.rows };
}

/** Locks a supplier order (documents are counted and added under it) and returns its supplier. */
export async function lockSupplierOfOrder(db: Queryable, supplierOrderId: number): Promise<string> {
  const { rows } = await db.query<{ supplier_bp_number: string }>(
    'SELECT supplier_bp_number FROM supplier_orders WHERE id = $1 FOR UPDATE',
    [supplierOrderId],
  );
  return rows[0].supplier_bp_number;
}

export interface LockedOrder {
  id: number;
  supplier_order_number: string;
  supplier_bp_number: string;
  status_id: number;
  in_com_protocol_id: number;
  buyer_email: string;
  buyer_user_id: string;
  supplier_name: string;
  customer_order_number: string;
}

/** Locks the order row for a confirmation; scoped to a supplier when given. */
export async function lockOrder(db: Queryable, orderNumber: string, supplierBpNumber?: string) {
  const { rows } = await db.query<LockedOrder>(
    `SELECT so.id::int AS id, so.supplier_order_number, so.supplier_bp_number, so.status_id, sup.in_com_protocol_id,
            u.email AS buyer_email, u.id AS buyer_user_id, s.name AS supplier_name, co.customer_order_number
       FROM supplier_orders so JOIN suppliers sup ON sup.bp_number = so.supplier_bp_number
       JOIN business_partners s ON s.bp_number = so.supplier_bp_number
       JOIN customer_orders co ON co.id = so.customer_order_id JOIN users u ON u.id = co.user_id
      WHERE so.supplier_order_number = $1 ${supplierBpNumber ? 'AND so.supplier_bp_number = $2' : ''}
      FOR UPDATE OF so`,
    supplierBpNumber ? [orderNumber, supplierBpNumber] : [orderNumber],
  );
  return rows[0] ?? null;
}

export type LineRow = ConfirmableLineRow & {
  id: string;
  price_basis: string;
  min_quantity: string;
  unit_code: string | null;
  confirmed_quantity_price: string | null;
};

export async function linesOf(db: Queryable, supplierOrderId: number) {
  const { rows } = await db.query<LineRow>(
    `SELECT id, line_no, article_number, name, quantity, unit_price, price_basis, min_quantity,
            to_char(delivery_date, 'YYYY-MM-DD') AS delivery_date, confirmation_kind, confirmed_quantity,
            confirmed_unit_price, to_char(confirmed_delivery_date, 'YYYY-MM-DD') AS confirmed_delivery_date,
            confirmed_article_number, confirmed_name, unit_code, confirmed_quantity_price
       FROM order_lines WHERE supplier_order_id = $1 ORDER BY line_no`,
    [supplierOrderId],
  );
  return rows;
}

export interface LineConfirmationWrite {
  kind: 'confirmed' | 'changed' | 'replaced' | 'removed';
  quantity: number | null;
  unitPrice: number | null;
  deliveryDate: string | null;
  articleNumber: string | null;
  name: string | null;
  quantityPrice: number | null;
}

export async function writeLineConfirmation(db: Queryable, lineId: number, c: LineConfirmationWrite) {
  await db.query(
    `UPDATE order_lines SET confirmation_kind = $2, confirmed_quantity = $3, confirmed_unit_price = $4,
            confirmed_delivery_date = $5, confirmed_article_number = $6, confirmed_name = $7,
            confirmed_quantity_price = $8 WHERE id = $1`,
    [lineId, c.kind, c.quantity, c.unitPrice, c.deliveryDate, c.articleNumber, c.name, c.quantityPrice],
  );
}

export async function insertAddedLine(
  db: Queryable,
  supplierOrderId: number,
  lineNo: number,
  l: {
    articleNumber: string;
    name: string;
    quantity: number;
    unitPrice: number | null;
    deliveryDate: string | null;
    quantityPrice: number | null;
  },
) {
  // An added line was never ordered: its ordered values equal the confirmed ones, kind 'added' (views that
  // show ordered values treat an added line as ordered 0). Basis and minimum quantity 1: the value is price × quantity.
  await db.query(
    `INSERT INTO order_lines (supplier_order_id, line_no, product_instance_id, article_number, name, quantity, unit_price,
            quantity_price, price_on_request, delivery_date, confirmation_kind, confirmed_quantity, confirmed_unit_price,
            confirmed_delivery_date, confirmed_quantity_price)
     VALUES ($1, $2, '', $3, $4, $5::numeric, $6::numeric, $8::numeric, $6::numeric IS NULL, $7::date, 'added', $5::numeric,
             $6::numeric, $7::date, $8::numeric)`,
    [supplierOrderId, lineNo, l.articleNumber, l.name, l.quantity, l.unitPrice, l.deliveryDate, l.quantityPrice],
  );
}

export async function setConfirmedTotal(db: Queryable, supplierOrderId: number, total: number) {
  await db.query('UPDATE supplier_orders SET confirmed_total = $2 WHERE id = $1', [supplierOrderId, total]);
}

/** Ordered and confirmed value of a supplier order (for the buyer's mail). */
export async function orderTotals(db: Queryable, supplierOrderId: number) {
  const { rows } = await db.query<{ ordered: number; confirmed: number }>(
    'SELECT net_value::float8 AS ordered, current_net_value::float8 AS confirmed FROM supplier_orders WHERE id = $1',
    [supplierOrderId],
  );
  return rows[0];
}

export async function documentCount(db: Queryable, supplierOrderId: number) {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM supplier_order_documents WHERE supplier_order_id = $1',
    [supplierOrderId],
  );
  return rows[0].n;
}

export async function insertDocument(
  db: Queryable,
  supplierOrderId: number,
  file: { name: string; contentType: string; size: number; storageKey: string },
  userId: string,
) {
  await db.query(
    `INSERT INTO supplier_order_documents (supplier_order_id, file_name, content_type, size_bytes, storage_key, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [supplierOrderId, file.name, file.contentType, file.size, file.storageKey, userId],
  );
}

export async function document(db: Queryable, supplierOrderId: number, id: number) {
  const { rows } = await db.query<{
    file_name: string;
    content_type: string;
    content: Buffer | null;
    storage_key: string | null;
  }>(
    'SELECT file_name, content_type, content, storage_key FROM supplier_order_documents WHERE id = $1 AND supplier_order_id = $2',
    [id, supplierOrderId],
  );
  return rows[0] ?? null;
}

export async function deleteDocument(db: Queryable, supplierOrderId: number, id: number) {
  const { rows } = await db.query<{ storage_key: string | null }>(
    'DELETE FROM supplier_order_documents WHERE id = $1 AND supplier_order_id = $2 RETURNING storage_key',
    [id, supplierOrderId],
  );
  return rows[0] ?? null;
}

export async function recordInbound(
  db: Queryable,
  r: {
    supplierBpNumber: string | null;
    source: string;
    fileName: string | null;
    content: Buffer;
    orderNumber: string | null;
    outcome: 'applied' | 'rejected';
    reason: string | null;
  },
) {
  await db.query(
    `INSERT INTO inbound_order_responses (supplier_bp_number, source, file_name, content, supplier_order_number, outcome, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [r.supplierBpNumber, r.source, r.fileName, r.content, r.orderNumber, r.outcome, r.reason],
  );
}

export async function inboundCredential(db: Queryable, username: string) {
  const { rows } = await db.query<{ supplier_bp_number: string; secret_hash: string }>(
    'SELECT supplier_bp_number, secret_hash FROM supplier_inbound_credentials WHERE username = $1',
    [username],
  );
  return rows[0] ?? null;
}

export async function upsertInboundCredential(db: Queryable, bp: string, username: string, hash: string) {
  await db.query(
    `INSERT INTO supplier_inbound_credentials (supplier_bp_number, username, secret_hash) VALUES ($1, $2, $3)
     ON CONFLICT (supplier_bp_number) DO UPDATE SET username = EXCLUDED.username, secret_hash = EXCLUDED.secret_hash,
            created_at = now()`,
    [bp, username, hash],
  );
}

/** The supplier that uses this inbound username, if any. */
export async function inboundUsernameOwner(db: Queryable, username: string) {
  const { rows } = await db.query<{ supplier_bp_number: string }>(
    'SELECT supplier_bp_number FROM supplier_inbound_credentials WHERE username = $1',
    [username],
  );
  return rows[0]?.supplier_bp_number ?? null;
}

export async function supplierExists(db: Queryable, bp: string) {
  const { rowCount } = await db.query('SELECT 1 FROM suppliers WHERE bp_number = $1', [bp]);
  return (rowCount ?? 0) > 0;
}

export async function inboundCredentialOf(db: Queryable, bp: string) {
  const { rows } = await db.query<{ username: string; created_at: Date }>(
    'SELECT username, created_at FROM supplier_inbound_credentials WHERE supplier_bp_number = $1',
    [bp],
  );
  return rows[0] ?? null;
}

export async function listInbound(
  db: Queryable,
  f: { outcome: 'applied' | 'rejected' | null; supplierBpNumber: string | null; page: number; pageSize: number },
) {
  const where = `($1::text IS NULL OR r.outcome = $1) AND ($2::text IS NULL OR r.supplier_bp_number = $2)`;
  const { rows } = await db.query(
    `SELECT r.id, r.supplier_bp_number, bp.name AS supplier_name, r.source, r.file_name, r.supplier_order_number,
            r.outcome, r.reason, octet_length(r.content) AS size, r.received_at, count(*) OVER () AS total
       FROM inbound_order_responses r LEFT JOIN business_partners bp ON bp.bp_number = r.supplier_bp_number
      WHERE ${where}
      ORDER BY r.received_at DESC, r.id DESC LIMIT $3 OFFSET $4`,
    [f.outcome, f.supplierBpNumber, f.pageSize, (f.page - 1) * f.pageSize],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && f.page > 1) {
    const c = await db.query(`SELECT count(*)::int AS n FROM inbound_order_responses r WHERE ${where}`, [
      f.outcome,
      f.supplierBpNumber,
    ]);
    total = c.rows[0].n;
  }
  return { rows, total };
}

export async function inboundContent(db: Queryable, id: number) {
  const { rows } = await db.query<{ file_name: string | null; content: Buffer; received_at: Date }>(
    'SELECT file_name, content, received_at FROM inbound_order_responses WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** Whether a picked-up file (supplier, source, name and content) was already received: the pick-up is idempotent. */
export async function inboundSeen(db: Queryable, bp: string, source: string, fileName: string, content: Buffer) {
  const { rowCount } = await db.query(
    `SELECT 1 FROM inbound_order_responses
      WHERE supplier_bp_number = $1 AND source = $2 AND file_name = $3 AND content = $4 LIMIT 1`,
    [bp, source, fileName, content],
  );
  return (rowCount ?? 0) > 0;
}

/** Suppliers whose inbound protocol is SFTP or FTP (their ORDRSP files are picked up from their server). */
export async function pickupSuppliers(db: Queryable) {
  const { rows } = await db.query<{ bp_number: string; in_com_protocol_id: number; workflow_id: number | null }>(
    'SELECT bp_number, in_com_protocol_id, workflow_id FROM suppliers WHERE in_com_protocol_id IN (2, 5) ORDER BY bp_number',
  );
  return rows;
}

/** The GTIN of each ordered line's product (line number → GTIN), for matching a confirmation by GTIN. */
export async function lineGtins(db: Queryable, supplierOrderId: number): Promise<Map<number, string>> {
  const { rows } = await db.query<{ line_no: number; gtin: string }>(
    `SELECT l.line_no, p.gtin
       FROM order_lines l
       JOIN product_offers po ON po.product_instance_id = l.product_instance_id
       JOIN products p ON p.id = po.product_no
      WHERE l.supplier_order_id = $1 AND p.gtin IS NOT NULL`,
    [supplierOrderId],
  );
  return new Map(rows.map((r) => [Number(r.line_no), r.gtin]));
}
