import { setTimeout as sleep } from 'node:timers/promises';
import { inTransaction, type Db } from '../../db/pool.ts';
import * as repo from './transmission.repo.ts';
import { markSupplierOrdersSent } from './supplier-order-status.ts';

/** At most this many attempts in one transaction. */
const MAX_BATCH = 64;
/** Pause before a batch that could not be written is written again. */
const RETRY_WRITE_MS = 1000;

interface Waiting {
  attempt: repo.SentAttempt;
  resolve: (marked: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Records the worker's successful attempts in batches (group commit): the attempts that end while a batch is written
 * form the next one, so deliveries that end together cost one transaction — the attempts closed, the outbox rows marked
 * sent, the supplier orders set Sent, each customer order re-derived once — instead of one transaction of six round
 * trips each, the five supplier orders of one checkout queueing on their customer order's row.
 *
 * An attempt is recorded only after its delivery happened, and `record` resolves once it is committed (true when the
 * row was still this worker's claim). A batch that cannot be written is written again after a pause: its deliveries
 * happened and must not be reported failed and sent again; the worker keeps renewing their leases meanwhile. Only once
 * the worker stops is a failed write given up: the rows are then left to their leases, as after a crash.
 */
export class SentRecorder {
  private queue: Waiting[] = [];
  private writing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: { error: (...a: unknown[]) => void },
  ) {}

  record(attempt: repo.SentAttempt): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ attempt, resolve, reject });
      this.writing ??= this.writeQueued().finally(() => (this.writing = null));
    });
  }

  /** From now on a failed write is given up (the worker is stopping); waits for the write under way. */
  async stop() {
    this.stopped = true;
    await this.writing;
  }

  private async writeQueued() {
    // The attempts that end in the same turn of the event loop join this batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const marked = await this.write(batch.map((w) => w.attempt));
        for (const w of batch) w.resolve(marked.has(w.attempt.supplierOrderId));
      } catch (error) {
        if (this.stopped) {
          for (const w of batch) w.reject(error);
          continue;
        }
        this.log.error(
          { err: error },
          `transmission worker: recording ${batch.length} sent attempt(s) failed, retrying`,
        );
        this.queue.unshift(...batch);
        await sleep(RETRY_WRITE_MS);
      }
    }
  }

  private write(attempts: repo.SentAttempt[]): Promise<Set<number>> {
    return inTransaction(this.db, async (tx) => {
      const held = await repo.markAttemptsSent(tx.$client, attempts);
      // A row whose lease another claim took is left to that claim (it decides the order's status).
      await markSupplierOrdersSent(
        tx.$client,
        attempts
          .filter((a) => held.has(a.supplierOrderId))
          .map((a) => ({ supplierOrderId: a.supplierOrderId, externalOrderId: a.externalOrderId })),
      );
      return held;
    });
  }
}
