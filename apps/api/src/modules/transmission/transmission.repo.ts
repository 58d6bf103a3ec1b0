import type { OrderAddress, SupplierOrderForTransmission } from './transmission.types.ts';
import { SupplierOrderStatus } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import { neutraliseCsvUpload } from '../../lib/uploads/csv-safe.ts';
import type { FileStorage } from '../storage/index.ts';

/** The channel of a transmission's first attempt: the supplier's outbound settings then (docs/transmission.md). */
export interface ChannelSnapshot {
  protocolId: number;
  dataFormatIds: number[];
  emailAddress: string | null;
  folder: string | null;
  as2Identifier: string | null;
  as2Url: string | null;
  workflowId: number | null;
}

export interface ClaimedTransmission {
  supplierOrderId: number;
  attempts: number;
  /** Attempts made before the last 'Erneut senden': this series' attempt number is attempts - budgetBase. */
  budgetBase: number;
  idempotencyKey: string;
  channel: ChannelSnapshot;
  /** The workflow version of the first attempt (null: no workflow, or it was deleted since). */
  workflowVersionId: number | null;
}

/** The supplier's current outbound settings as a channel snapshot (SQL expression over suppliers `s`). */
const CHANNEL_OF_SUPPLIER = `jsonb_build_object('protocolId', s.out_com_protocol_id, 'dataFormatIds', to_jsonb(COALESCE(s.out_data_formats, '{}')),
  'emailAddress', s.out_email_address, 'folder', s.out_ftp_folder, 'as2Identifier', s.out_as2_identifier,
  'as2Url', s.out_as2_url, 'workflowId', s.workflow_id)`;
/** The newest version of the supplier's workflow (SQL expression over suppliers `s`). */
const CURRENT_WORKFLOW_VERSION = `(SELECT v.id FROM workflow_versions v WHERE v.workflow_id = s.workflow_id ORDER BY v.version DESC LIMIT 1)`;

/**
 * The outbox rows of new supplier orders as an INSERT over `source`, a WITH entry of the caller's statement with their
 * `id` and `supplier_order_number`: the checkout writes them in the statement that creates its supplier orders (one
 * round trip less while its transaction holds the cart). The idempotency key is the one every receiver sees.
 */
export function transmissionRowsOf(source: string): string {
  return `INSERT INTO supplier_order_transmissions (supplier_order_id, idempotency_key)
     SELECT id, 'shk-' || supplier_order_number FROM ${source}
     ON CONFLICT (supplier_order_id) DO NOTHING`;
}

/** Supplier orders still in Created without an outbox row (written by another path or before 0021). */
export async function sweepOrphans(client: Queryable): Promise<number> {
  const { rowCount } = await client.query(
    `INSERT INTO supplier_order_transmissions (supplier_order_id, idempotency_key)
     SELECT so.id, 'shk-' || so.supplier_order_number FROM supplier_orders so
      WHERE so.status_id = 1 AND NOT EXISTS (SELECT 1 FROM supplier_order_transmissions t WHERE t.supplier_order_id = so.id)
     ON CONFLICT (supplier_order_id) DO NOTHING`,
  );
  return rowCount ?? 0;
}

/**
 * Claims due rows: pending ones whose backoff has passed and 'sending' ones whose lease expired
 * (the worker holding them crashed or hangs). SKIP LOCKED lets several workers share the table.
 * The same statement opens each claim's attempt in the log (and closes an attempt a crashed worker
 * left 'running' as abandoned): one commit per batch instead of one per order.
 */
export async function claimDue(client: Queryable, limit: number, leaseMs: number): Promise<ClaimedTransmission[]> {
  const { rows } = await client.query(
    `WITH claimed AS (
       UPDATE supplier_order_transmissions t
          SET state = 'sending', attempts = t.attempts + 1, locked_until = now() + make_interval(secs => $2::float8 / 1000), updated_at = now(),
              -- The first attempt records the channel; every later attempt (retry, resend) reuses it.
              channel = COALESCE(t.channel, c.current_channel),
              workflow_version_id = CASE WHEN t.channel IS NULL THEN c.current_version ELSE t.workflow_version_id END,
              channel_recorded_at = CASE WHEN t.channel IS NULL THEN now() ELSE t.channel_recorded_at END
         FROM (SELECT d.supplier_order_id, ${CHANNEL_OF_SUPPLIER} AS current_channel, ${CURRENT_WORKFLOW_VERSION} AS current_version
                 FROM (SELECT supplier_order_id FROM supplier_order_transmissions
                        WHERE (state = 'pending' AND next_attempt_at <= now()) OR (state = 'sending' AND locked_until < now())
                        ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) d
                 JOIN supplier_orders so ON so.id = d.supplier_order_id JOIN suppliers s ON s.bp_number = so.supplier_bp_number) c
        WHERE t.supplier_order_id = c.supplier_order_id
        RETURNING t.supplier_order_id, t.attempts, t.budget_base, t.idempotency_key, t.channel, t.workflow_version_id),
     abandoned AS (
       UPDATE supplier_order_transmission_attempts a
          SET outcome = 'abandoned', finished_at = now(), error = 'Abgebrochen (Prozess beendet oder Zeitüberschreitung)'
         FROM claimed c WHERE a.supplier_order_id = c.supplier_order_id AND a.outcome = 'running'),
     opened AS (
       INSERT INTO supplier_order_transmission_attempts (supplier_order_id, attempt_no, protocol_id, data_format_ids)
       SELECT c.supplier_order_id, c.attempts, (c.channel->>'protocolId')::smallint,
              ARRAY(SELECT jsonb_array_elements_text(c.channel->'dataFormatIds'))::smallint[]
         FROM claimed c
       ON CONFLICT (supplier_order_id, attempt_no) DO NOTHING)
     SELECT supplier_order_id, attempts, budget_base, idempotency_key, channel, workflow_version_id FROM claimed`,
    [limit, leaseMs],
  );
  return rows.map((r) => ({
    supplierOrderId: Number(r.supplier_order_id),
    attempts: r.attempts,
    budgetBase: r.budget_base,
    idempotencyKey: r.idempotency_key,
    channel: r.channel as ChannelSnapshot,
    workflowVersionId: r.workflow_version_id == null ? null : Number(r.workflow_version_id),
  }));
}

/**
 * Extends the lease of claims still held (state 'sending', the same attempt): a worker renews its claims while their
 * attempts run, so an attempt that takes longer than the lease (a slow peer, documents queued on a busy machine) is
 * not claimed again by another worker and sent twice. A worker that died renews nothing: its leases run out.
 */
export async function renewLeases(
  client: Queryable,
  claims: { supplierOrderId: number; attempts: number }[],
  leaseMs: number,
): Promise<number> {
  if (!claims.length) return 0;
  const { rowCount } = await client.query(
    `UPDATE supplier_order_transmissions t SET locked_until = now() + make_interval(secs => $3::float8 / 1000)
       FROM unnest($1::bigint[], $2::int[]) AS c(id, attempts)
      WHERE t.supplier_order_id = c.id AND t.state = 'sending' AND t.attempts = c.attempts`,
    [claims.map((c) => c.supplierOrderId), claims.map((c) => c.attempts), leaseMs],
  );
  return rowCount ?? 0;
}

/** Closes an attempt as failed with its error (successful ones are closed in batches: markAttemptsSent). */
export async function finishFailedAttempt(
  client: Queryable,
  supplierOrderId: number,
  attemptNo: number,
  error: string,
) {
  await client.query(
    `UPDATE supplier_order_transmission_attempts SET outcome = 'failed', finished_at = now(), error = $3, remote_names = '{}', message_id = NULL
      WHERE supplier_order_id = $1 AND attempt_no = $2`,
    [supplierOrderId, attemptNo, error],
  );
}

/** A successful attempt to record (markAttemptsSent). */
export interface SentAttempt {
  supplierOrderId: number;
  attemptNo: number;
  remoteNames: string[];
  messageId: string | null;
  externalOrderId: string | null;
}

/**
 * Records several successful attempts in one statement each for the log and the outbox rows: the attempts are closed
 * as 'sent', and the rows this worker still holds (state 'sending', the same attempt) are marked sent. Returns the
 * supplier orders whose rows were marked: a row whose lease another claim took is left to that claim.
 */
export async function markAttemptsSent(client: Queryable, attempts: SentAttempt[]): Promise<Set<number>> {
  if (!attempts.length) return new Set();
  const ids = attempts.map((a) => a.supplierOrderId);
  const numbers = attempts.map((a) => a.attemptNo);
  await client.query(
    `UPDATE supplier_order_transmission_attempts a
        SET outcome = 'sent', finished_at = now(), error = NULL,
            remote_names = ARRAY(SELECT jsonb_array_elements_text(c.remote_names)), message_id = c.message_id
       FROM unnest($1::bigint[], $2::int[], $3::jsonb[], $4::text[]) AS c(id, attempt_no, remote_names, message_id)
      WHERE a.supplier_order_id = c.id AND a.attempt_no = c.attempt_no`,
    [ids, numbers, attempts.map((a) => JSON.stringify(a.remoteNames)), attempts.map((a) => a.messageId)],
  );
  const { rows } = await client.query<{ supplier_order_id: string }>(
    `UPDATE supplier_order_transmissions t SET state = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL, updated_at = now()
       FROM unnest($1::bigint[], $2::int[]) AS c(id, attempts)
      WHERE t.supplier_order_id = c.id AND t.state = 'sending' AND t.attempts = c.attempts
      RETURNING t.supplier_order_id`,
    [ids, numbers],
  );
  return new Set(rows.map((r) => Number(r.supplier_order_id)));
}

export async function markRetry(
  client: Queryable,
  supplierOrderId: number,
  attemptNo: number,
  error: string,
  delayMs: number,
): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE supplier_order_transmissions
        SET state = 'pending', locked_until = NULL, last_error = $3, next_attempt_at = now() + make_interval(secs => $4::float8 / 1000), updated_at = now()
      WHERE supplier_order_id = $1 AND state = 'sending' AND attempts = $2`,
    [supplierOrderId, attemptNo, error, delayMs],
  );
  return rowCount === 1;
}

export async function markFailed(client: Queryable, supplierOrderId: number, attemptNo: number, error: string) {
  const { rowCount } = await client.query(
    `UPDATE supplier_order_transmissions SET state = 'failed', locked_until = NULL, last_error = $3, updated_at = now()
      WHERE supplier_order_id = $1 AND state = 'sending' AND attempts = $2`,
    [supplierOrderId, attemptNo, error],
  );
  return rowCount === 1;
}

/**
 * Puts a failed row back into the queue with a fresh retry budget: budget_base = attempts made so far, so the
 * worker counts this series from 1 again (the attempt numbers in the log keep counting). False when there is
 * nothing to resend.
 */
export async function requeue(client: Queryable, supplierOrderId: number, useCurrentChannel = false): Promise<boolean> {
  // With the current settings the recorded channel is dropped: the next claim records the supplier's settings now.
  const { rowCount } = await client.query(
    `INSERT INTO supplier_order_transmissions (supplier_order_id, idempotency_key)
     SELECT id, 'shk-' || supplier_order_number FROM supplier_orders WHERE id = $1
     ON CONFLICT (supplier_order_id) DO UPDATE SET state = 'pending', budget_base = supplier_order_transmissions.attempts,
            next_attempt_at = now(), locked_until = NULL, updated_at = now(),
            channel = CASE WHEN $2::boolean THEN NULL ELSE supplier_order_transmissions.channel END,
            workflow_version_id = CASE WHEN $2::boolean THEN NULL ELSE supplier_order_transmissions.workflow_version_id END,
            channel_recorded_at = CASE WHEN $2::boolean THEN NULL ELSE supplier_order_transmissions.channel_recorded_at END
      WHERE supplier_order_transmissions.state = 'failed'`,
    [supplierOrderId, useCurrentChannel],
  );
  return rowCount === 1;
}

export async function findSupplierOrderRef(client: Queryable, supplierOrderNumber: string) {
  const { rows } = await client.query<{ id: string; status_id: number; customer_order_id: string }>(
    'SELECT id, status_id, customer_order_id FROM supplier_orders WHERE supplier_order_number = $1',
    [supplierOrderNumber],
  );
  return rows[0] ? { id: Number(rows[0].id), statusId: rows[0].status_id } : null;
}

export async function transmissionState(client: Queryable, supplierOrderId: number) {
  const { rows } = await client.query(
    `SELECT t.state, t.attempts, t.next_attempt_at, t.last_error, t.idempotency_key, t.sent_at, t.channel, t.channel_recorded_at,
            v.workflow_id AS version_workflow_id, v.version AS workflow_version, v.name AS workflow_name
       FROM supplier_order_transmissions t LEFT JOIN workflow_versions v ON v.id = t.workflow_version_id
      WHERE t.supplier_order_id = $1`,
    [supplierOrderId],
  );
  return rows[0] ?? null;
}

export async function listAttempts(client: Queryable, supplierOrderId: number) {
  const { rows } = await client.query(
    `SELECT attempt_no, protocol_id, data_format_ids, started_at, finished_at, outcome, error, remote_names, message_id
       FROM supplier_order_transmission_attempts WHERE supplier_order_id = $1 ORDER BY attempt_no, id`,
    [supplierOrderId],
  );
  return rows;
}

/** The supplier's settings now, as the channel a new first attempt would record, with its workflow's newest version. */
export async function currentChannel(client: Queryable, supplierOrderId: number) {
  const { rows } = await client.query<{
    channel: ChannelSnapshot;
    workflow_name: string | null;
    workflow_version: number | null;
  }>(
    `SELECT ${CHANNEL_OF_SUPPLIER} AS channel, w.name AS workflow_name,
            (SELECT max(v.version) FROM workflow_versions v WHERE v.workflow_id = s.workflow_id) AS workflow_version
       FROM supplier_orders so JOIN suppliers s ON s.bp_number = so.supplier_bp_number
       LEFT JOIN workflows w ON w.id = s.workflow_id
      WHERE so.id = $1`,
    [supplierOrderId],
  );
  return rows[0] ?? null;
}

const address = (a: Record<string, unknown> | null | undefined): OrderAddress => ({
  name: (a?.name as string) ?? null,
  contactPerson: (a?.contactPerson as string) ?? null,
  additionalInfo: (a?.additionalInfo as string) ?? null,
  street: (a?.street as string) ?? null,
  houseNumber: (a?.houseNumber as string) ?? null,
  postalCode: (a?.postalCode as string) ?? null,
  city: (a?.city as string) ?? null,
  countryCode: ((a?.countryCode ?? a?.country) as string) ?? null,
});

export async function loadOrder(client: Queryable, id: number): Promise<SupplierOrderForTransmission | null> {
  return (await loadOrders(client, [id])).get(id) ?? null;
}

/** A supplier order to transmit, with its status now (the worker transmits only Created and SendingFailed ones). */
export type OrderToTransmit = SupplierOrderForTransmission & { statusId: number };

/**
 * The supplier orders of a claimed batch with their lines, in two statements for the whole batch (the worker read
 * each order with three round trips before).
 */
export async function loadOrders(client: Queryable, ids: number[]): Promise<Map<number, OrderToTransmit>> {
  const orders = new Map<number, OrderToTransmit>();
  if (!ids.length) return orders;
  const { rows } = await client.query(
    `SELECT so.*, co.customer_order_number, co.placed_at AS ordered_at, co.customer_address, co.dispatch_to,
            co.order_reference, co.order_note,
            sb.name AS supplier_name, sb.street AS s_street, sb.house_number AS s_house, sb.postal_code AS s_postal, sb.city AS s_city, sb.country AS s_country,
            bb.name AS buyer_name, s.gln, s.headquarter_gln, u.first_name, u.last_name, u.email AS user_email
       FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id
       JOIN business_partners sb ON sb.bp_number = so.supplier_bp_number
       JOIN business_partners bb ON bb.bp_number = so.buyer_bp_number
       JOIN suppliers s ON s.bp_number = so.supplier_bp_number
       LEFT JOIN users u ON u.id = co.user_id
      WHERE so.id = ANY($1::bigint[])`,
    [ids],
  );
  if (!rows.length) return orders;
  const lines = await client.query(
    `SELECT l.*, p.gtin,
            COALESCE((SELECT json_agg(json_build_object('id', a.id, 'fileName', a.file_name, 'contentType', a.content_type, 'size', a.size_bytes) ORDER BY a.id)
                        FROM order_line_attachments a WHERE a.order_line_id = l.id), '[]') AS attachments
       FROM order_lines l
       LEFT JOIN product_offers po ON po.product_instance_id = l.product_instance_id
       LEFT JOIN products p ON p.id = po.product_no
      WHERE l.supplier_order_id = ANY($1::bigint[]) ORDER BY l.supplier_order_id, l.line_no`,
    [rows.map((r) => r.id)],
  );
  const linesOf = new Map<number, OrderRow[]>();
  for (const l of lines.rows) {
    const list = linesOf.get(Number(l.supplier_order_id)) ?? [];
    list.push(l);
    linesOf.set(Number(l.supplier_order_id), list);
  }
  for (const r of rows) orders.set(Number(r.id), orderOf(r, linesOf.get(Number(r.id)) ?? []));
  return orders;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of loadOrders' statements, read by name below
type OrderRow = Record<string, any>;

function orderOf(r: OrderRow, lines: OrderRow[]): OrderToTransmit {
  const id = Number(r.id);
  const customer = r.customer_address ?? {};
  return {
    id,
    statusId: r.status_id,
    supplierOrderNumber: r.supplier_order_number,
    customerOrderNumber: r.customer_order_number,
    placedAt: new Date(r.ordered_at),
    isTest: r.is_test === true,
    orderReference: r.order_reference ?? null,
    orderNote: r.order_note ?? null,
    supplier: {
      bpNumber: r.supplier_bp_number,
      name: r.supplier_name,
      gln: r.gln,
      headquarterGln: r.headquarter_gln,
      address: address({
        name: r.supplier_name,
        street: r.s_street,
        houseNumber: r.s_house,
        postalCode: r.s_postal,
        city: r.s_city,
        countryCode: r.s_country,
      }),
    },
    buyer: {
      bpNumber: r.buyer_bp_number,
      name: r.buyer_name,
      supplierCustomerNumber: r.supplier_customer_number,
      address: address(customer),
      contactName: [r.first_name, r.last_name].filter(Boolean).join(' ') || null,
      contactEmail: r.user_email ?? customer.email ?? null,
    },
    dispatchTo: r.dispatch_to,
    netValue: Number(r.net_value),
    deliveryCost: Number(r.delivery_cost),
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      articleNumber: l.article_number,
      gtin: l.gtin ?? null,
      manufacturerName: l.manufacturer_name,
      manufacturerNumber: l.producer_number,
      name: l.name,
      quantity: Number(l.quantity),
      unitCode: l.unit_code,
      unitPrice: l.unit_price == null ? null : Number(l.unit_price),
      priceBasis: Number(l.price_basis),
      quantityPrice: l.quantity_price == null ? null : Number(l.quantity_price),
      deliveryDate: l.delivery_date ? toIsoDate(l.delivery_date) : null,
      projectCode: l.project_code,
      projectDescription: l.project_description,
      comment: l.comment,
      deliveryAddress: l.delivery_address ? address(l.delivery_address) : null,
      attachments: l.attachments.map((a: { id: number; fileName: string; contentType: string; size: number }) => ({
        ...a,
        id: Number(a.id),
      })),
    })),
  };
}

/**
 * The order's attachments with their bytes, for a transmission (the transmitters build whole messages): files in the
 * file storage are read from it, attachments from before it keep their bytes in the row.
 */
export async function loadAttachmentContents(client: Queryable, supplierOrderId: number, storage: FileStorage) {
  const { rows } = await client.query<{
    file_name: string;
    content_type: string;
    content: Buffer | null;
    storage_key: string | null;
  }>(
    `SELECT a.file_name, a.content_type, a.content, a.storage_key FROM order_line_attachments a JOIN order_lines l ON l.id = a.order_line_id
      WHERE l.supplier_order_id = $1 ORDER BY l.line_no, a.id`,
    [supplierOrderId],
  );
  const files = [];
  for (const r of rows) {
    const content = r.storage_key ? await readStored(storage, r.storage_key) : r.content!;
    // Stored attachments were neutralised on upload; rows written by other paths (older data, imports) are
    // neutralised here too, so no CSV reaches a supplier with a formula cell (lib/uploads/csv-safe.ts).
    files.push({
      fileName: r.file_name,
      contentType: r.content_type,
      content: (await neutraliseCsvUpload(r.file_name, content)) ?? content,
    });
  }
  return files;
}

async function readStored(storage: FileStorage, key: string): Promise<Buffer> {
  const stream = await storage.get(key);
  // A missing file is retried like any failed delivery: the order is never sent without its attachment.
  if (!stream) throw new Error(`attachment ${key} is missing from the file storage`);
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function toIsoDate(value: Date | string): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** Locks a supplier order by its number; null when there is none. */
export async function lockSupplierOrder(
  client: Queryable,
  supplierOrderNumber: string,
): Promise<{ id: number; statusId: number } | null> {
  const { rows } = await client.query<{ id: string; status_id: number }>(
    'SELECT id, status_id FROM supplier_orders WHERE supplier_order_number = $1 FOR UPDATE',
    [supplierOrderNumber],
  );
  return rows[0] ? { id: Number(rows[0].id), statusId: rows[0].status_id } : null;
}

/**
 * Sets a supplier order's status with its lifecycle timestamps (sent, confirmed) when it is in one of `from`
 * (any status without `from`); returns its customer order's id, or null when nothing changed.
 */
export async function setSupplierOrderStatus(
  client: Queryable,
  supplierOrderId: number,
  to: SupplierOrderStatus,
  options: { from?: readonly number[]; externalOrderId?: string | null },
): Promise<number | null> {
  const { rows } = await client.query<{ customer_order_id: string }>(
    `UPDATE supplier_orders
        SET status_id = $2::smallint, status_changed_at = now(), modified_at = now(),
            sent_at = CASE WHEN $2::smallint = ${SupplierOrderStatus.Sent} THEN now() ELSE sent_at END,
            confirmed_at = CASE WHEN $2::smallint IN (${SupplierOrderStatus.Confirmed}, ${SupplierOrderStatus.ConfirmedWithChanges}) THEN now() ELSE confirmed_at END,
            external_order_id = COALESCE($4::text, external_order_id)
      WHERE id = $1 AND ($3::smallint[] IS NULL OR status_id = ANY($3::smallint[]))
      RETURNING customer_order_id`,
    [supplierOrderId, to, options.from ?? null, options.externalOrderId ?? null],
  );
  return rows[0] ? Number(rows[0].customer_order_id) : null;
}

/**
 * Sets several supplier orders to Sent (with sent_at and an external order id where the channel returned one) when
 * they are in Created or SendingFailed; returns the customer orders of those that changed.
 */
export async function setSupplierOrdersSent(
  client: Queryable,
  orders: { supplierOrderId: number; externalOrderId: string | null }[],
): Promise<number[]> {
  if (!orders.length) return [];
  const { rows } = await client.query<{ customer_order_id: string }>(
    `UPDATE supplier_orders so
        SET status_id = ${SupplierOrderStatus.Sent}, status_changed_at = now(), modified_at = now(), sent_at = now(),
            external_order_id = COALESCE(c.external_order_id, so.external_order_id)
       FROM unnest($1::bigint[], $2::text[]) AS c(id, external_order_id)
      WHERE so.id = c.id AND so.status_id IN (${SupplierOrderStatus.Created}, ${SupplierOrderStatus.SendingFailed})
      RETURNING so.customer_order_id`,
    [orders.map((o) => o.supplierOrderId), orders.map((o) => o.externalOrderId)],
  );
  return rows.map((r) => Number(r.customer_order_id));
}

/**
 * Re-derives the status of several customer orders in one statement, in the order of their ids: every writer that
 * locks more than one customer order takes them in this order, so two of them cannot wait for each other.
 */
export async function refreshCustomerOrderStatuses(client: Queryable, customerOrderIds: number[]) {
  if (!customerOrderIds.length) return;
  const ids = [...new Set(customerOrderIds)].sort((a, b) => a - b);
  await client.query(
    'SELECT refresh_customer_order_status(c.id) FROM unnest($1::bigint[]) WITH ORDINALITY AS c(id, n) ORDER BY c.n',
    [ids],
  );
}

/**
 * Re-derives the customer order's status from all its supplier orders in one call (migration 0630: it locks the
 * order, reads the statuses and writes the result on the server; the row is then held until COMMIT).
 */
export async function refreshCustomerOrderStatus(client: Queryable, customerOrderId: number) {
  await refreshCustomerOrderStatuses(client, [customerOrderId]);
}
