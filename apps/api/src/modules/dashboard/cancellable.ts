import type pg from 'pg';
import type { FastifyReply } from 'fastify';
import { cancelStatement, connectForFigures, releaseFigureConnection } from './dashboard.repo.ts';

/**
 * Runs work on a connection of the pool and cancels its running statement (pg_cancel_backend, sent on a connection
 * outside the pool: see cancelStatement) when the HTTP client goes away first — the SPA aborts the previous request
 * on every filter change, and the database should not keep computing an answer nobody reads.
 */
export async function withCancellableClient<T>(
  pool: pg.Pool,
  reply: FastifyReply,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await connectForFigures(pool);
  const pid = (client as unknown as { processID: number }).processID;
  let done = false;
  let cancelling: Promise<void> = Promise.resolve();
  const onClose = () => {
    if (done || reply.raw.writableEnded) return;
    cancelling = cancelStatement(pool, pid).catch(() => undefined);
  };
  reply.raw.once('close', onClose);
  try {
    return await work(client);
  } finally {
    done = true;
    reply.raw.off('close', onClose);
    // The connection goes back only after a cancel under way has ended: handed to another request first, the cancel
    // aimed at this backend would end that request's statement.
    await cancelling;
    await releaseFigureConnection(client);
  }
}
