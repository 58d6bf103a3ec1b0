import type pg from 'pg';

type Query = (...args: unknown[]) => unknown;

/** The statements a pool was asked to run (their text), recorded until stop(). */
export interface StatementRecorder {
  readonly texts: string[];
  /** Forgets what was recorded so far (before the call whose statements a test counts). */
  clear(): void;
  /** Gives the pool its own query back. */
  stop(): void;
}

/** Records the text of every statement sent through `pool.query` (a string or a query config) from now on. */
export function recordStatements(pool: pg.Pool): StatementRecorder {
  const target = pool as unknown as { query: Query };
  const query = pool.query.bind(pool) as Query;
  const texts: string[] = [];
  target.query = (...args: unknown[]) => {
    const first = args[0];
    texts.push(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
    return query(...args);
  };
  return {
    texts,
    clear: () => void texts.splice(0),
    stop: () => {
      target.query = query;
    },
  };
}
