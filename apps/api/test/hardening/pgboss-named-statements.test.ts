import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_JOB_OPTIONS, Jobs } from '../../src/modules/jobs/jobs.ts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * pg-boss's statements are prepared once per connection (jobs.ts, namedStatementQuery): the job insert through the
 * caller's transaction (the checkout's mail job) and pg-boss's own fetch and completion. Its semantics stay: the job
 * exists exactly when the transaction commits, its options are stored, singleton keys hold, a failing job is retried.
 */

let t: TestApp;
const quiet = { info: () => {}, error: () => {} };
/** pg-boss's queue creation (Jobs creates queues only for the handlers it runs). */
const createQueue = (name: string, options: { policy?: string } = {}) =>
  (t.jobs as unknown as { boss: { createQueue: (name: string, options: object) => Promise<void> } }).boss.createQueue(
    name,
    options,
  );

beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(async () => t?.close());

const preparedJobInserts = async (client: pg.PoolClient) =>
  (
    await client.query<{ name: string }>(
      `SELECT name FROM pg_prepared_statements WHERE name LIKE 'pgboss-%' AND statement LIKE '%INSERT INTO pgboss.job%'`,
    )
  ).rows.map((r) => r.name);

/** Runs `work` in a transaction on `client` and commits (or rolls back). */
async function inTransaction<T>(client: pg.PoolClient, end: 'COMMIT' | 'ROLLBACK', work: () => Promise<T>) {
  await client.query('BEGIN');
  const result = await work();
  await client.query(end);
  return result;
}

describe('pg-boss statements prepared once per connection', () => {
  it('a job queued in a transaction is a prepared statement of that connection, reused, and exists only after the commit', async () => {
    const queue = 'named-statements-test';
    await createQueue(queue);
    const client = await t.pool.connect();
    try {
      const send = (n: number) => () => t.jobs.sendInTransaction(client, queue, { n }, BATCH_JOB_OPTIONS);
      const committed = [
        await inTransaction(client, 'COMMIT', send(1)),
        await inTransaction(client, 'COMMIT', send(2)),
      ];
      const rolledBack = await inTransaction(client, 'ROLLBACK', send(3));
      // One prepared insert on this connection, used by all three calls.
      expect(await preparedJobInserts(client)).toHaveLength(1);
      expect(rolledBack).toBeTruthy();
      const { rows } = await t.pool.query(
        `SELECT id::text, data, retry_limit, retry_delay, retry_backoff, extract(epoch FROM expire_in)::int AS expire
           FROM pgboss.job WHERE name = $1 ORDER BY (data->>'n')::int`,
        [queue],
      );
      expect(rows.map((r) => r.id)).toEqual(committed);
      expect(rows.map((r) => r.data.n)).toEqual([1, 2]);
      expect(rows[0]).toMatchObject({
        retry_limit: BATCH_JOB_OPTIONS.retryLimit,
        retry_delay: BATCH_JOB_OPTIONS.retryDelay,
        retry_backoff: true,
        expire: BATCH_JOB_OPTIONS.expireInSeconds,
      });
    } finally {
      client.release();
    }
  });

  it('singleton keys still hold through the prepared insert', async () => {
    const queue = 'named-statements-singleton';
    await createQueue(queue, { policy: 'short' });
    const client = await t.pool.connect();
    try {
      const send = (n: number) => () => t.jobs.sendInTransaction(client, queue, { n }, { singletonKey: 'eins' });
      expect(await inTransaction(client, 'COMMIT', send(1))).toBeTruthy();
      // A second queued job of the same key is refused ('short': one queued job per key).
      expect(await inTransaction(client, 'COMMIT', send(2))).toBeNull();
      const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [queue]);
      expect(rows[0].n).toBe(1);
    } finally {
      client.release();
    }
  });

  it("pg-boss's own pool fetches, fails, retries and completes a job", async () => {
    const queue = 'named-statements-retry';
    const jobs = new Jobs(t.databaseUrl, quiet);
    const attempts: number[] = [];
    jobs.register<{ n: number }>(queue, async (_data, attempt) => {
      attempts.push(attempt.retryCount);
      if (attempt.retryCount === 0) throw new Error('first attempt fails');
    });
    await jobs.start();
    try {
      await jobs.send(queue, { n: 1 }, { retryLimit: 2, retryDelay: 1, retryBackoff: false });
      await eventually(async () => {
        const { rows } = await t.pool.query(`SELECT state::text FROM pgboss.job WHERE name = $1`, [queue]);
        return rows[0]?.state === 'completed';
      }, 20_000);
      expect(attempts).toEqual([0, 1]);
    } finally {
      await jobs.stop();
    }
  });
});
