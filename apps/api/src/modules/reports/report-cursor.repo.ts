/**
 * The report file's rows (generate-file.ts, run in the report thread): the report's query through a server-side cursor
 * in a read-only transaction on a connection of its own (the thread has no pool), fetched in batches.
 */
import pg from 'pg';

export interface ReportCursor {
  /** The next batch of at most `fetchSize` rows as arrays; empty when the query has no rows left. */
  fetch(): Promise<unknown[][]>;
  /** Ends the read-only transaction. */
  commit(): Promise<void>;
  /** Closes the connection (also after a failure). */
  close(): Promise<void>;
}

/** Connects, begins a read-only transaction and declares the cursor over `sql` with `params`. */
export async function openReportCursor(
  connection: pg.ClientConfig,
  sql: string,
  params: unknown[],
  fetchSize: number,
): Promise<ReportCursor> {
  const client = new pg.Client(connection);
  // A connection lost mid-report surfaces as the failing FETCH; the event itself must not end the thread.
  client.on('error', () => undefined);
  await client.connect();
  const close = () => client.end().catch(() => undefined);
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE report_cursor NO SCROLL CURSOR FOR ${sql}`, params);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    fetch: async () =>
      (await client.query<unknown[]>({ text: `FETCH ${fetchSize} FROM report_cursor`, rowMode: 'array' })).rows,
    commit: async () => {
      await client.query('COMMIT');
    },
    close,
  };
}
