import type { Queryable } from '../../db/queryable.ts';

/**
 * Counts one hit of `key` in its window (rate_limit_hits, migration 0440) and returns the count and the window's
 * remaining milliseconds. A window that has ended starts again at 1. One statement: two nodes counting the same key
 * at the same moment both count (the row lock orders them).
 */
export async function countHit(db: Queryable, key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
  const { rows } = await db.query<{ hits: number; ttl_ms: number }>(
    `INSERT INTO rate_limit_hits AS r (key, hits, window_ends)
     VALUES ($1, 1, clock_timestamp() + make_interval(secs => $2::double precision / 1000))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.window_ends <= clock_timestamp() THEN 1 ELSE r.hits + 1 END,
       window_ends = CASE WHEN r.window_ends <= clock_timestamp() THEN EXCLUDED.window_ends ELSE r.window_ends END
     RETURNING hits, GREATEST(0, ceil(extract(epoch FROM window_ends - clock_timestamp()) * 1000))::int AS ttl_ms`,
    [key, windowMs],
  );
  return { hits: rows[0].hits, ttlMs: rows[0].ttl_ms };
}

/** Drops counters whose window ended (run now and then; an ended window counts from 1 anyway). */
export async function dropEndedWindows(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM rate_limit_hits WHERE window_ends < now() - interval '1 minute'`);
}
