import type pg from 'pg';
import type { FastifyReply } from 'fastify';
import { cancelStatement, connectForFigures, releaseFigureConnection } from './dashboard.repo.ts';

/**
 * Runs work on a dedicated connection and cancels its running statement (pg_cancel_backend) when the
 * HTTP client goes away first — the SPA aborts the previous request on every filter change, and the
 * database should not keep computing an answer nobody reads.
 */
export async function withCancellableClient<T>(
  pool: pg.Pool,
  reply: FastifyReply,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await connectForFigures(pool);
  const pid = (client as unknown as { processID: number }).processID;
  let done = false;
  const onClose = () => {
    if (done || reply.raw.writableEnded) return;
    cancelStatement(pool, pid).catch(() => undefined);
  };
  reply.raw.once('close', onClose);
  try {
    return await work(client);
  } finally {
    done = true;
    reply.raw.off('close', onClose);
    await releaseFigureConnection(client);
  }
}
