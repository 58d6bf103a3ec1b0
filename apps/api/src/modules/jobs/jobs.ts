import { createHash } from 'node:crypto';
import pg from 'pg';
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

type Query = (query: pg.QueryConfig | string, values?: unknown[]) => Promise<pg.QueryResult>;

/**
 * pg-boss's statements (job insert, fetch, completion) are the same few texts on every call; sent unnamed, Postgres
 * parsed and planned each one every time (about 1.3 ms per checkout's mail job). A statement with parameters is a
 * single statement (the extended protocol allows no more), so it can be prepared: it is named after a hash of its
 * text, and each connection prepares it once and reuses it (a new pg-boss version with other texts gets other names).
 * Statements without parameters (schema migration, maintenance: several commands in one text) are sent as they are.
 */
export function namedStatementQuery(query: Query) {
  return (text: string, values?: unknown[]) =>
    values?.length ? query({ name: pgBossStatementName(text), text, values }) : query(text, values);
}

const statementNames = new Map<string, string>();
function pgBossStatementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `pgboss-${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
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
  /** pg-boss's connections (as its own pool: 4, application_name 'pgboss'), created by start(), ended by stop(). */
  private pool: pg.Pool | null = null;
  private readonly handlers = new Map<string, { handler: JobHandler<object>; options: QueueOptions }>();
  private started = false;

  private readonly connectionString: string;

  constructor(
    connectionString: string,
    private readonly log: Logger = console,
  ) {
    // Our own db for pg-boss, so that its statements are prepared once per connection (namedStatementQuery).
    const db = {
      executeSql: async (text: string, values?: unknown[]) => {
        if (!this.pool) throw new Error('jobs not started');
        return namedStatementQuery(this.pool.query.bind(this.pool) as Query)(text, values);
      },
    };
    this.connectionString = connectionString;
    this.boss = new PgBoss({ db, schema: 'pgboss' });
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
    this.pool ??= this.createPool();
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
    client: Pick<pg.ClientBase, 'query'>,
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
    const db = { executeSql: namedStatementQuery(client.query.bind(client) as Query) };
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
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  private createPool() {
    const pool = new pg.Pool({
      connectionString: this.connectionString,
      max: 4,
      application_name: 'pgboss',
      // The fetch and completion address one queue's partition of pgboss.job by name: a plan made for the value
      // prunes the others, so Postgres rated the generic plan costlier and planned every call again (0.5 ms per job).
      // The generic plan prunes the same partitions when it starts; planned once per connection.
      options: '-c plan_cache_mode=force_generic_plan',
    });
    pool.on('error', (error) => this.boss.emit('error', error));
    return pool;
  }
}
