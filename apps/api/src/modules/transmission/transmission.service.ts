import type pg from 'pg';
import { SupplierOrderStatus, transmissionMessages, type SupplierOrderTransmissions } from '@shk/contracts';
import { inTransaction, type Db } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import * as repo from './transmission.repo.ts';
import type { Queryable } from '../../db/queryable.ts';

/**
 * Writes the transmission requests of new supplier orders into the outbox. Call INSIDE the transaction
 * that creates the orders (checkout): the request exists exactly when the orders commit. Orders of
 * suppliers in communication test (status 3) are marked as tests here.
 */
export async function queueTransmissions(client: Queryable, supplierOrderIds: number[]) {
  if (!supplierOrderIds.length) return;
  await repo.markCommunicationTests(client, supplierOrderIds);
  await repo.insertTransmissions(client, supplierOrderIds);
}

/**
 * 'Erneut senden': puts a SendingFailed supplier order back into the outbox with a fresh retry budget
 * (same idempotency key, so a receiver that got an earlier attempt can drop the repeat). 404 for an
 * unknown order, 409 problem unless the order is SendingFailed. The worker moves it to Sent.
 */
export async function resendSupplierOrder(db: Db, supplierOrderNumber: string): Promise<SupplierOrderTransmissions> {
  await inTransaction(db, async (tx) => {
    const c = tx.$client;
    const order = await repo.lockSupplierOrder(c, supplierOrderNumber);
    if (!order) throw notFound(transmissionMessages.orderNotFound);
    if (order.statusId !== SupplierOrderStatus.SendingFailed)
      throw new HttpProblem(409, transmissionMessages.resendNotFailed, { type: 'supplier-order-not-failed' });
    await repo.requeue(c, order.id);
  });
  return listTransmissions(db, supplierOrderNumber);
}

/** The transmission log of a supplier order: outbox state plus every attempt (404 for an unknown order). */
export async function listTransmissions(db: Db, supplierOrderNumber: string): Promise<SupplierOrderTransmissions> {
  const client = db.$client as pg.Pool;
  const ref = await repo.findSupplierOrderRef(client, supplierOrderNumber);
  if (!ref) throw notFound(transmissionMessages.orderNotFound);
  const state = await repo.transmissionState(client, ref.id);
  const attempts = await repo.listAttempts(client, ref.id);
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    supplierOrderNumber,
    supplierOrderStatusId: ref.statusId,
    state: state?.state ?? null,
    attempts: state?.attempts ?? 0,
    nextAttemptAt:
      state && (state.state === 'pending' || state.state === 'sending') ? iso(state.next_attempt_at) : null,
    lastError: state?.last_error ?? null,
    idempotencyKey: state?.idempotency_key ?? null,
    sentAt: iso(state?.sent_at ?? null),
    log: attempts.map((a) => ({
      attemptNo: a.attempt_no,
      communicationProtocolId: a.protocol_id,
      dataFormatIds: a.data_format_ids.map(Number),
      startedAt: iso(a.started_at)!,
      finishedAt: iso(a.finished_at),
      outcome: a.outcome,
      error: a.error,
      remoteNames: a.remote_names,
      messageId: a.message_id,
    })),
  };
}
