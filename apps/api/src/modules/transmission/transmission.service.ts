import type pg from 'pg';
import {
  SupplierOrderStatus,
  communicationProtocolLabels,
  transmissionMessages,
  type SupplierOrderTransmissions,
  type TransmissionChannel,
} from '@shk/contracts';
import { inTransaction, type Db } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import * as repo from './transmission.repo.ts';

/**
 * 'Erneut senden': puts a SendingFailed supplier order back into the outbox with a fresh retry budget
 * (same idempotency key, so a receiver that got an earlier attempt can drop the repeat). 404 for an
 * unknown order, 409 problem unless the order is SendingFailed and no resend of it is queued or running. The worker
 * moves it to Sent.
 */
export async function resendSupplierOrder(
  db: Db,
  supplierOrderNumber: string,
  channel: 'first' | 'current' = 'first',
): Promise<SupplierOrderTransmissions> {
  await inTransaction(db, async (tx) => {
    const c = tx.$client;
    const order = await repo.lockSupplierOrder(c, supplierOrderNumber);
    if (!order) throw notFound(transmissionMessages.orderNotFound);
    if (order.statusId !== SupplierOrderStatus.SendingFailed)
      throw new HttpProblem(409, transmissionMessages.resendNotFailed, { type: 'supplier-order-not-failed' });
    // Failed status but an attempt still queued or running (an earlier 'Erneut senden'): nothing would be queued.
    if (!(await repo.requeue(c, order.id, channel === 'current')))
      throw new HttpProblem(409, transmissionMessages.resendRunning, { type: 'supplier-order-resend-running' });
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
  const current = await repo.currentChannel(client, ref.id);
  const recorded: TransmissionChannel | null = state?.channel
    ? describeChannel(
        state.channel,
        {
          id: state.channel.workflowId ?? null,
          name: state.workflow_name ?? null,
          version: state.workflow_version ?? null,
        },
        state.channel_recorded_at,
      )
    : null;
  const now = current
    ? describeChannel(
        current.channel,
        { id: current.channel.workflowId ?? null, name: current.workflow_name, version: current.workflow_version },
        null,
      )
    : null;
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
    channel: recorded,
    currentChannel: recorded && recorded.description !== now?.description ? now : null,
  };
}

/**
 * A channel in one German line: protocol, the workflow with its version, and where it goes (addresses, folder,
 * AS2 partner). Two channels with the same line are the same for staff.
 */
function describeChannel(
  channel: repo.ChannelSnapshot,
  workflow: { id: number | null; name: string | null; version: number | null },
  recordedAt: Date | null,
): TransmissionChannel {
  const protocolId = Number(channel.protocolId);
  const parts = [communicationProtocolLabels[protocolId] ?? String(protocolId)];
  if (workflow.name)
    parts.push(`Workflow „${workflow.name}“${workflow.version ? ` (Version ${workflow.version})` : ''}`);
  if (protocolId === 1 && channel.emailAddress) parts.push(`an ${channel.emailAddress}`);
  if (channel.folder && (protocolId === 2 || protocolId === 5)) parts.push(`Ordner ${channel.folder}`);
  if (protocolId === 3 && channel.as2Identifier) parts.push(`AS2-Partner ${channel.as2Identifier}`);
  return {
    communicationProtocolId: protocolId,
    workflowId: workflow.id,
    workflowName: workflow.name,
    workflowVersion: workflow.version,
    recordedAt: recordedAt ? new Date(recordedAt).toISOString() : null,
    description: parts.join(' · '),
  };
}
