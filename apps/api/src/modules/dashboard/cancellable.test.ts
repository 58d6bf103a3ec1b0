// A figure whose HTTP client went away is cancelled at once, also when the pool has no other connection: the cancel
// is sent on a connection outside the pool. (Through the pool, it waited for the very connection it was to free.)
import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, hiddenWaitsOf } from '../../db/pool.ts';
import { withCancellableClient } from './cancellable.ts';

let pool: pg.Pool;
beforeAll(() => {
  pool = createPool(inject('pgAdminUrl'), 1, { connectionTimeoutMillis: 20_000 }, { strictConnectionUse: true });
});
afterAll(async () => {
  await pool?.end();
});

/** The part of a reply withCancellableClient watches: the response stream, closed when the client goes away. */
function replyOfGoneClient() {
  const raw = Object.assign(new EventEmitter(), { writableEnded: false });
  return { reply: { raw } as unknown as FastifyReply, goAway: () => raw.emit('close') };
}

describe('withCancellableClient on a one-connection pool', () => {
  it('cancels the running statement within a second of the client going away, and gives the connection back', async () => {
    const { reply, goAway } = replyOfGoneClient();
    const started = Date.now();
    const figure = withCancellableClient(pool, reply, (client) => client.query('SELECT pg_sleep(10)'));
    setTimeout(goAway, 300);
    await expect(figure).rejects.toMatchObject({ code: '57014' }); // query_canceled
    // Well before the 10 s sleep would have ended by itself (a loose bound: the machine may be loaded).
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(hiddenWaitsOf(pool)).toEqual([]);
    // The connection is back in the pool and usable.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('does not cancel once the work has finished', async () => {
    const { reply, goAway } = replyOfGoneClient();
    const rows = await withCancellableClient(
      pool,
      reply,
      async (client) => (await client.query('SELECT 2 AS two')).rows,
    );
    goAway();
    expect(rows).toEqual([{ two: 2 }]);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
