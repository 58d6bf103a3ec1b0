import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema.ts';

// Return NUMERIC as JS numbers and DATE as plain 'yyyy-mm-dd' strings (no timezone shifts).
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export function createPool(url: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle connection that the server closes (restart, Ctrl-C reaching Postgres first) must not
  // crash the process with an unhandled 'error' event; the pool simply replaces the connection.
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') console.warn(`[db] idle connection lost: ${error.message}`);
  });
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  return drizzle(pool, { schema }) as Db;
}

export type TxDb = NodePgDatabase<typeof schema> & { $client: pg.PoolClient };

/**
 * Runs `work` in one transaction on a dedicated connection; every multi-step write goes through here.
 * `tx` is a Drizzle instance bound to that connection, `tx.$client` the raw client for hand-written SQL.
 */
export async function inTransaction<T>(db: Db, work: (tx: TxDb) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  try {
    await client.query('BEGIN');
    const result = await work(drizzle(client, { schema }) as TxDb);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
