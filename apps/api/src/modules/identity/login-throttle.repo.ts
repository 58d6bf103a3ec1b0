import type { Queryable } from '../../db/queryable.ts';

/** How a key's failures turn into a delay (login-throttle.ts). */
export interface DelayPolicy {
  /** Failures without any delay. */
  free: number;
  /** The delay after the first failure beyond `free`; it doubles with every further failure. */
  baseSeconds: number;
  maxSeconds: number;
  /** A key whose last failure is older than this starts again from zero. */
  forgetSeconds: number;
}

/** Seconds the longest-blocked of the keys must still wait (0: none is blocked). */
export async function secondsBlocked(c: Queryable, keys: string[]): Promise<number> {
  const { rows } = await c.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::int AS seconds
       FROM sign_in_failures WHERE key = ANY($1::text[]) AND blocked_until > now()`,
    [keys],
  );
  return Math.max(0, rows[0]?.seconds ?? 0);
}

/** Counts one failure of the key and sets its delay; returns the failures counted. */
export async function recordFailure(c: Queryable, key: string, policy: DelayPolicy): Promise<number> {
  const counted = `CASE WHEN sign_in_failures.last_failed_at < now() - make_interval(secs => $2)
                        THEN 1 ELSE sign_in_failures.failures + 1 END`;
  const delay = (failures: string) =>
    `CASE WHEN ${failures} > $3
          THEN now() + make_interval(secs => least($5::float8, $4::float8 * 2::float8 ^ (${failures} - $3 - 1)))
     END`;
  const { rows } = await c.query<{ failures: number }>(
    `INSERT INTO sign_in_failures (key, failures, last_failed_at, blocked_until)
     VALUES ($1, 1, now(), ${delay('1')})
     ON CONFLICT (key) DO UPDATE SET
       failures = ${counted},
       last_failed_at = now(),
       blocked_until = ${delay(counted)}
     RETURNING failures`,
    [key, policy.forgetSeconds, policy.free, policy.baseSeconds, policy.maxSeconds],
  );
  return rows[0].failures;
}

/** A success forgets the key's failures. */
export async function forgetFailures(c: Queryable, key: string): Promise<void> {
  await c.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
}

/** Drops counters nobody has failed on for a day (kept small; called now and then). */
export async function dropOldFailures(c: Queryable): Promise<void> {
  await c.query("DELETE FROM sign_in_failures WHERE last_failed_at < now() - interval '1 day'");
}
