import PgBoss from 'pg-boss';

export type JobHandler<T> = (data: T) => Promise<void>;

/** What the jobs and the runtime log through: a pino/Fastify logger or the console. */
export interface Logger { info: (...args: any[]) => void; error: (...args: any[]) => void }

/**
 * Background work on pg-boss (same Postgres, schema pgboss). Queues are created on first use;
 * handlers registered before start() begin polling when the app starts.
 */
export class Jobs {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler<any>>();
  private started = false;

  constructor(connectionString: string, private readonly log: Logger = console) {
    this.boss = new PgBoss({ connectionString, max: 4, schema: 'pgboss' });
    this.boss.on('error', (error: Error & { code?: string }) => {
      // 57P01: Postgres is shutting down (Ctrl-C stops it in parallel with the app); not an error.
      if (error.code === '57P01') this.log.info('pg-boss: database connection closed by shutdown');
      else this.log.error({ err: error }, 'pg-boss error');
    });
  }

  register<T extends object>(queue: string, handler: JobHandler<T>) {
    this.handlers.set(queue, handler);
  }

  async start() {
    if (this.started) return;
    await this.boss.start();
    this.started = true;
    for (const [queue, handler] of this.handlers) {
      await this.boss.createQueue(queue);
      await this.boss.work<object>(queue, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
    }
  }

  async send<T extends object>(queue: string, data: T, options: { retryLimit?: number; retryDelay?: number; singletonKey?: string } = {}) {
    if (!this.started) throw new Error('jobs not started');
    return this.boss.send(queue, data, { retryLimit: 5, retryDelay: 10, retryBackoff: true, ...options });
  }

  /** Queues several jobs of one queue in a single statement. */
  async sendMany<T extends object>(queue: string, items: T[]) {
    if (!this.started) throw new Error('jobs not started');
    if (!items.length) return;
    await this.boss.insert(items.map((data) => ({ name: queue, data, retryLimit: 5, retryDelay: 10, retryBackoff: true })));
  }

  async stop() {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }
}
