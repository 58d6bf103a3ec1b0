/**
 * The background work of a node, started and stopped from one list.
 *
 * A module builds its part of the work while it registers its routes (the worker shares objects with them: the
 * transmission routes nudge the worker, the report routes and the report sweeper are one service) and hands it to
 * the lifecycle under its name in BACKGROUND_WORK; nothing starts there. The runtime starts every provided entry in
 * the order of the list once the app is built, and stops them in reverse order after the HTTP server has closed
 * (requests in flight have finished): the workers hand their leases back while pg-boss and the database still run.
 * A name missing from the list cannot be provided, so a new worker has to take its place in the order.
 */

/** Every background worker, sweeper and poller of a node, in the order they start (they stop in reverse). */
export const BACKGROUND_WORK = [
  /** The catalogue's search pool, the index's change feed and (SQL engine) the change-feed pruner. */
  'search index feed',
  /** pg-boss: the queues of mails, reports and catalogue imports (every later entry may queue jobs). */
  'pg-boss',
  /** Requeues mails whose job was lost; one node of the cluster at a time (advisory lock). */
  'mail sweeper',
  /** Claims supplier orders with a lease and transmits them (TRANSMISSION_WORKER). */
  'transmission worker',
  /** Mails AS2 certificate expiry warnings (AS2_CERT_CHECK). */
  'AS2 certificate check',
  /** Collects ORDRSP files from suppliers' SFTP/FTP servers (ORDRSP_PICKUP). */
  'ORDRSP pick-up',
  /** Finishes or fails catalogue imports whose process died (CATALOGUE_IMPORT_WORKER). */
  'catalogue import sweeper',
  /** Fetches the product pictures and documents imports name by URL (CATALOGUE_IMPORT_WORKER). */
  'media fetcher',
  /** Requeues reports whose worker died (REPORT_WORKER). */
  'report sweeper',
  /** Removes expired reports, hourly. */
  'report retention',
  /** Removes stored cart attachments nobody names any more, hourly. */
  'cart attachment sweep',
] as const;

export type BackgroundWorkName = (typeof BACKGROUND_WORK)[number];

export interface BackgroundWork {
  start: () => void | Promise<void>;
  /** Stops and waits for the work in hand (claimed rows are finished or handed back). */
  stop: () => void | Promise<void>;
}

/**
 * An entry that runs a function every `everyMs` (with atStart also at once), without keeping the process alive;
 * the function reports its own errors.
 */
export function periodic(run: () => Promise<unknown>, everyMs: number, options: { atStart?: boolean } = {}) {
  let timer: NodeJS.Timeout | null = null;
  const runSafely = () => void run().catch(() => undefined);
  return {
    start: () => {
      if (options.atStart) runSafely();
      timer = setInterval(runSafely, everyMs);
      timer.unref();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  } satisfies BackgroundWork;
}

/** The node's background work and whether it is stopping. */
export class Lifecycle {
  /** Set once the node is stopping: /ready answers 503 so a load balancer sends it nothing new. */
  draining = false;
  private readonly provided = new Map<BackgroundWorkName, BackgroundWork>();
  private readonly started: BackgroundWorkName[] = [];

  constructor(private readonly log: { error: (...a: unknown[]) => void } = console) {}

  /** Hands over a module's part of the work (once per name); it starts with the others. */
  provide(name: BackgroundWorkName, work: BackgroundWork) {
    if (!BACKGROUND_WORK.includes(name)) throw new Error(`background work '${name}' is not in BACKGROUND_WORK`);
    if (this.provided.has(name)) throw new Error(`background work '${name}' provided twice`);
    this.provided.set(name, work);
  }

  /** Starts the provided entries in the order of BACKGROUND_WORK; a failed start stops those started before. */
  async start() {
    for (const name of BACKGROUND_WORK) {
      const work = this.provided.get(name);
      if (!work || this.started.includes(name)) continue;
      try {
        await work.start();
      } catch (error) {
        await this.stop();
        throw error;
      }
      this.started.push(name);
    }
  }

  /** Stops the started entries in reverse order; one that fails to stop is logged and the others still stop. */
  async stop() {
    this.draining = true;
    for (let name = this.started.pop(); name; name = this.started.pop()) {
      try {
        await this.provided.get(name)!.stop();
      } catch (error) {
        this.log.error({ err: error }, `stopping ${name} failed`);
      }
    }
  }

  /** The entries running now, in the order they started. */
  running(): readonly BackgroundWorkName[] {
    return [...this.started];
  }
}
