import crypto from 'node:crypto';
import type pg from 'pg';
import { CommunicationProtocol, SupplierOrderStatus, outboundMessages, transmissionMessages } from '@shk/contracts';
import { inTransaction } from '../../db/pool.ts';
import type { Db } from '../../db/pool.ts';
import type { FileStorage } from '../storage/index.ts';
import type { TransmissionSettings } from '../../config.ts';
import * as repo from './transmission.repo.ts';
import { changeSupplierOrderStatus } from './supplier-order-status.ts';
import { SentRecorder } from './sent-recorder.ts';
import { documentFor } from './formats/index.ts';
import { stopOrderPdfThread } from './formats/pdf-thread.ts';
import type { WorkflowsService } from './workflows.service.ts';
import { describeOutboundError, type OutboundPolicy } from './outbound.ts';
import {
  PermanentTransmissionError,
  type OrderTransmitter,
  type TransmissionRequest,
  type TransmissionOutcome,
  type TransmissionTarget,
} from './transmission.types.ts';

/** The worker's tuning (TRANSMISSION_* in the configuration). */
export type WorkerOptions = Omit<TransmissionSettings, 'worker'>;

export const backoffMs = (attempt: number, o: Pick<WorkerOptions, 'retryBaseMs' | 'retryMaxMs'>) =>
  Math.round(Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4));

/** The attempt log's reason: German, never a library's raw message (outbound.ts). */
const errorText = (error: unknown) => describeOutboundError(error).slice(0, 2000);

/** Unique per attempt: names temporary and unique files on file servers. */
const attemptMessageId = (attempt: number) => `${attempt}-${crypto.randomBytes(4).toString('hex')}`;

/**
 * Delivers the transmission outbox: claims due rows with a lease, renders the documents of the
 * supplier's data formats, hands them to the transmitter of the supplier's protocol, logs every attempt
 * and moves the supplier order Created → Sent, or after the last attempt → SendingFailed.
 * Several workers (processes) can run against one database.
 */
export class TransmissionWorker {
  private readonly inflight = new Set<Promise<void>>();
  /** The claims whose attempts run now (their leases are renewed meanwhile). */
  private readonly held = new Map<number, number>();
  private renewTimer: NodeJS.Timeout | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private readonly recorder: SentRecorder;

  constructor(
    private readonly db: Db,
    private readonly transmitters: OrderTransmitter[],
    private readonly workflows: WorkflowsService,
    private readonly options: WorkerOptions,
    private readonly policy: OutboundPolicy,
    private readonly storage: FileStorage,
    private readonly log: { info: (...a: unknown[]) => void; error: (...a: unknown[]) => void } = console,
  ) {
    this.recorder = new SentRecorder(db, log);
  }

  private get pool(): pg.Pool {
    return this.db.$client as pg.Pool;
  }

  start() {
    if (this.running) return;
    this.running = true;
    const sweep = () =>
      repo
        .sweepOrphans(this.pool)
        .then((n) => {
          if (n) {
            this.log.info(`transmission sweeper: ${n} supplier order(s) without transmission requeued`);
            this.nudge();
          }
        })
        .catch((error) => this.log.error({ err: error }, 'transmission sweeper failed'));
    void sweep();
    this.sweepTimer = setInterval(sweep, this.options.sweepEveryMs);
    this.sweepTimer.unref();
    // Three renewals per lease: a claim stays this worker's while its attempt runs, however long it takes.
    this.renewTimer = setInterval(() => this.renewLeases(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
    this.loop = this.run();
  }

  /** Stops claiming and waits for the attempts in flight (their rows are finished, not left to the lease). */
  async stop() {
    if (!this.running) return;
    this.running = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.nudge();
    await this.loop;
    // From here a recording that fails is given up (its rows are left to their leases), so a database that is gone
    // cannot hold the shutdown.
    const recorderStopped = this.recorder.stop();
    await Promise.allSettled([...this.inflight]);
    await recorderStopped;
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    await Promise.allSettled(this.transmitters.map((t) => t.close?.()));
    await this.policy.close();
    await stopOrderPdfThread();
  }

  /** Wakes the loop before its poll interval (new work was queued in this process). */
  nudge() {
    this.wake?.();
  }

  private async run() {
    while (this.running) {
      const free = this.options.concurrency - this.inflight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const claims = await repo.claimDue(this.pool, free, this.options.leaseMs);
          claimed = claims.length;
          // The batch's orders in two statements; each attempt waits for them (a failure is its failure).
          const orders = claims.length
            ? repo.loadOrders(
                this.pool,
                claims.map((c) => c.supplierOrderId),
              )
            : null;
          for (const claim of claims) {
            this.held.set(claim.supplierOrderId, claim.attempts);
            const task: Promise<void> = this.process(claim, orders!)
              .catch((error) => this.log.error({ err: error }, `transmission of order ${claim.supplierOrderId} failed`))
              .finally(() => {
                if (this.held.get(claim.supplierOrderId) === claim.attempts) this.held.delete(claim.supplierOrderId);
                this.inflight.delete(task);
                this.nudge();
              });
            this.inflight.add(task);
          }
        } catch (error) {
          if (this.running) this.log.error({ err: error }, 'transmission worker: claiming failed');
        }
      }
      if (claimed > 0 && claimed === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
  }

  private async process(claim: repo.ClaimedTransmission, orders: Promise<Map<number, repo.OrderToTransmit>>) {
    const { supplierOrderId, attempts } = claim;
    const order = (await orders).get(supplierOrderId);
    if (!order) return;
    if (order.statusId !== SupplierOrderStatus.Created && order.statusId !== SupplierOrderStatus.SendingFailed) {
      // Cancelled or already handled elsewhere: nothing to transmit any more.
      const reason = 'Nicht gesendet: Bestellung ist nicht mehr im Status Erstellt';
      await inTransaction(this.db, async (tx) => {
        await repo.finishFailedAttempt(tx.$client, supplierOrderId, attempts, reason);
        await repo.markFailed(tx.$client, supplierOrderId, attempts, reason);
      });
      return;
    }
    const protocolId = Number(claim.channel.protocolId);
    let outcome: TransmissionOutcome;
    try {
      const request = await this.request(order, claim);
      // AS2 posts with its own client: its target is checked here (the file and HTTP channels check their own).
      if (protocolId === CommunicationProtocol.As2 && request.target.as2Url) await this.checkUrl(request.target.as2Url);
      const transmitter = this.transmitters.find((t) => t.protocolId === protocolId);
      if (!transmitter) throw new PermanentTransmissionError(`Kein Übertragungsweg für Protokoll ${protocolId}`);
      outcome = await transmitter.transmit(request);
    } catch (error) {
      const message = errorText(error);
      // Attempt number within the current series: a resend (requeue) starts counting from 1 again.
      const inSeries = attempts - claim.budgetBase;
      const final = error instanceof PermanentTransmissionError || inSeries >= this.options.maxAttempts;
      await inTransaction(this.db, async (tx) => {
        const c = tx.$client;
        await repo.finishFailedAttempt(c, supplierOrderId, attempts, message);
        if (!final) {
          await repo.markRetry(c, supplierOrderId, attempts, message, backoffMs(inSeries, this.options));
          return;
        }
        if (await repo.markFailed(c, supplierOrderId, attempts, message))
          await changeSupplierOrderStatus(c, supplierOrderId, SupplierOrderStatus.SendingFailed, {
            from: [SupplierOrderStatus.Created],
          });
      });
      // The library's own text stays in the server log (for the operator), never in what staff see.
      const raw = error instanceof Error ? error.message : String(error);
      this.log.info(
        `order ${order.supplierOrderNumber}: attempt ${attempts} failed${final ? ' (final)' : ''}: ${message}${raw === message ? '' : ` [${raw}]`}`,
      );
      return;
    }
    // Delivered: recorded with the attempts that end about now in one transaction (sent-recorder.ts). Outside the
    // try above: a delivery that happened is never recorded as failed (and sent again by a retry).
    await this.recorder.record({
      supplierOrderId,
      attemptNo: attempts,
      remoteNames: outcome.remoteNames,
      messageId: outcome.messageId ?? null,
      externalOrderId: outcome.externalOrderId ?? null,
    });
  }

  private renewLeases() {
    const claims = [...this.held].map(([supplierOrderId, attempts]) => ({ supplierOrderId, attempts }));
    if (!claims.length) return;
    repo
      .renewLeases(this.pool, claims, this.options.leaseMs)
      .catch((error) => this.log.error({ err: error }, 'transmission worker: renewing leases failed'));
  }

  private async checkUrl(url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PermanentTransmissionError(outboundMessages.connectionFailed(outboundMessages.badUrl));
    }
    await this.policy.resolve(parsed.hostname, Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)));
  }

  /** The request of an attempt over the channel its first attempt recorded (never the supplier's settings now). */
  private async request(order: repo.OrderToTransmit, claim: repo.ClaimedTransmission): Promise<TransmissionRequest> {
    const channel = claim.channel;
    const formatIds = (channel.dataFormatIds ?? []).map(Number);
    if (!formatIds.length) throw new PermanentTransmissionError('Kein Datenformat für den Bestellversand hinterlegt');
    let workflow: TransmissionTarget['workflow'] = null;
    if (channel.workflowId != null) {
      workflow =
        claim.workflowVersionId == null ? null : await this.workflows.versionConnection(claim.workflowVersionId);
      if (!workflow) throw new PermanentTransmissionError(transmissionMessages.workflowVersionGone);
    }
    const target: TransmissionTarget = {
      protocolId: Number(channel.protocolId),
      dataFormatIds: formatIds,
      emailAddresses: String(channel.emailAddress ?? '')
        .split(';')
        .map((a) => a.trim())
        .filter(Boolean),
      folder: channel.folder ?? null,
      as2Identifier: channel.as2Identifier ?? null,
      as2Url: channel.as2Url ?? null,
      workflow,
    };
    const documents = [];
    for (const formatId of formatIds) {
      const format = documentFor(formatId);
      if (!format) throw new PermanentTransmissionError(`Unbekanntes Datenformat ${formatId}`);
      documents.push(await format.render(order, { platformGln: this.options.platformGln }));
    }
    const hasAttachments = order.lines.some((l) => l.attachments.length);
    return {
      order,
      target,
      documents,
      attachments: hasAttachments ? await repo.loadAttachmentContents(this.pool, order.id, this.storage) : [],
      idempotencyKey: claim.idempotencyKey,
      messageId: attemptMessageId(claim.attempts),
    };
  }
}
