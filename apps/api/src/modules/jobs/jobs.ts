import PgBoss from 'pg-boss';

/** Retry position of the running job: a handler can tell its last attempt (retryCount === retryLimit). */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}
export type JobHandler<T> = (data: T, attempt: JobAttempt) => Promise<void>;

export interface QueueOptions {
  /** Jobs of this queue handled at once by this process (one pg-boss worker each). */
  concurrency?: number;
  /** A job of this queue is sent on this schedule (pg-boss cron, one per cluster) in time zone `tz`. */
  cron?: { expression: string; tz: string };
}

/** What the jobs and the runtime log through: a pino/Fastify logger or the console. */
export interface Logger {
  info: (...args: unknown[]) => void;
  error: (...args: unknown[]) => void;
}

/**
 * Background work on pg-boss (same Postgres, schema pgboss). Queues are created on first use;
 * handlers registered before start() begin polling when the app starts.
 */
/**
 * The options of jobs queued by sendMany (and of single jobs of the same queues): retried with backoff; a job that
 * hangs expires after 60 s instead of pg-boss's 15 minutes.
 */
export const BATCH_JOB_OPTIONS = { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 };

export class Jobs {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, { handler: JobHandler<object>; options: QueueOptions }>();
  private started = false;

  constructor(
    connectionString: string,
    private readonly log: Logger = console,
  ) {
    this.boss = new PgBoss({ connectionString, max: 4, schema: 'pgboss' });
    this.boss.on('error', (error: Error & { code?: string }) => {
      // 57P01: Postgres is shutting down (Ctrl-C stops it in parallel with the app); not an error.
      if (error.code === '57P01') this.log.info('pg-boss: database connection closed by shutdown');
      else this.log.error({ err: error }, 'pg-boss error');
    });
  }

  register<T extends object>(queue: string, handler: JobHandler<T>, options: QueueOptions = {}) {
    this.handlers.set(queue, { handler: handler as JobHandler<object>, options });
  }

  async start() {
    if (this.started) return;
    await this.boss.start();
    this.started = true;
    for (const [queue, { handler, options }] of this.handlers) {
      await this.boss.createQueue(queue);
      if (options.cron) await this.boss.schedule(queue, options.cron.expression, {}, { tz: options.cron.tz });
      // Several single-job workers instead of one batch: a failing job fails (and retries) alone.
      for (let i = 0; i < (options.concurrency ?? 1); i++) {
        let workerId: string | null = null;
        workerId = await this.boss.work<object>(
          queue,
          { pollingIntervalSeconds: 0.5, batchSize: 1, includeMetadata: true },
          async (jobs) => {
            for (const job of jobs) await handler(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit });
            // pg-boss waits the polling interval after every fetch, also after one that found a job: each worker then
            // runs at most two jobs a second (the mail queue's four workers capped a burst of order mails at 8/s).
            // A worker that found a job fetches again at once; only an empty fetch waits.
            if (jobs.length && workerId) this.boss.notifyWorker(workerId);
          },
        );
      }
    }
  }

  async send<T extends object>(
    queue: string,
    data: T,
    options: {
      retryLimit?: number;
      retryDelay?: number;
      retryBackoff?: boolean;
      expireInSeconds?: number;
      singletonKey?: string;
    } = {},
  ) {
    if (!this.started) throw new Error('jobs not started');
    return this.boss.send(queue, data, { retryLimit: 5, retryDelay: 10, retryBackoff: true, ...options });
  }

  /**
   * Queues a job through the caller's open transaction (pg-boss `db` option): the job exists exactly
   * when the transaction that caused it commits.
   */
  async sendInTransaction<T extends object>(
    client: { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> },
    queue: string,
    data: T,
    options: { retryLimit?: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number } = {},
  ) {
    if (!this.started) throw new Error('jobs not started');
    const db = {
      executeSql: (text: string, values: unknown[]) => client.query(text, values) as Promise<{ rows: never[] }>,
    };
    return this.boss.send(queue, data, { retryLimit: 5, retryDelay: 10, retryBackoff: true, ...options, db });
  }

  /**
   * Queues several jobs of one queue in a single statement, with BATCH_JOB_OPTIONS (`expireInSeconds` overrides its
   * expiry).
   */
  async sendMany<T extends object>(queue: string, items: T[], options: { expireInSeconds?: number } = {}) {
    if (!this.started) throw new Error('jobs not started');
    if (!items.length) return;
    const expireInSeconds = options.expireInSeconds ?? BATCH_JOB_OPTIONS.expireInSeconds;
    await this.boss.insert(items.map((data) => ({ name: queue, data, ...BATCH_JOB_OPTIONS, expireInSeconds })));
  }

  /** Queued, retrying or running jobs (or those in `states`) of a queue whose data field `key` is one of `values` (for sweepers). */
  async liveJobKeys(
    queue: string,
    key: string,
    values: (string | number)[],
    states: ('created' | 'retry' | 'active')[] = ['created', 'retry', 'active'],
  ): Promise<Set<string>> {
    if (!values.length) return new Set();
    const db = await this.boss.getDb();
    const { rows } = await db.executeSql(
      `SELECT DISTINCT data->>'${key.replace(/[^a-zA-Z0-9_]/g, '')}' AS v FROM pgboss.job
        WHERE name = $1 AND state::text = ANY($3::text[]) AND data->>'${key.replace(/[^a-zA-Z0-9_]/g, '')}' = ANY($2::text[])`,
      [queue, values.map(String), states],
    );
    return new Set(rows.map((r: { v: string }) => r.v));
  }

  async stop() {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }
}
