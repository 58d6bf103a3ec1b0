import type pg from 'pg';
import { countHit, dropEndedWindows } from './rate-limit.repo.ts';

type Incr = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface LimiterParams {
  /** Names the limiter's counters (e.g. 'mail-sending'); without it the route's method and URL do. */
  nameSpace?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/** Clean-up of ended windows: at most every ten minutes per process. */
const CLEAN_EVERY_MS = 10 * 60_000;

/**
 * A store for @fastify/rate-limit that counts in PostgreSQL (rate_limit_hits), so a limit holds for the whole
 * installation however many nodes answer: five requests on node A and five on node B are ten. Each limiter (a
 * route's config.rateLimit or app.createRateLimit) gets its own name space, from its `nameSpace` option or its
 * route. Fixed windows like @fastify/rate-limit's own LocalStore (no continueExceeding / exponential backoff).
 */
export function postgresRateLimitStore(pool: pg.Pool) {
  let cleanedAt = Date.now();
  class PostgresRateLimitStore {
    readonly prefix: string;
    // @fastify/rate-limit passes its global options first; a child gets its limiter's name.
    constructor(_options?: unknown, prefix = 'global') {
      this.prefix = prefix;
    }

    incr(key: string, callback: Incr, timeWindow?: number): void {
      if (Date.now() - cleanedAt > CLEAN_EVERY_MS) {
        cleanedAt = Date.now();
        void dropEndedWindows(pool).catch(() => {});
      }
      countHit(pool, `${this.prefix}|${key}`, timeWindow ?? 60_000).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(options: object): PostgresRateLimitStore {
      const params = options as LimiterParams;
      const route = params.routeInfo?.url
        ? `${[params.routeInfo.method].flat().join(',')} ${params.routeInfo.url}`
        : undefined;
      const name = params.nameSpace ?? route;
      if (!name) throw new Error('a rate limiter without route needs a nameSpace (cluster/rate-limit-store.ts)');
      return new PostgresRateLimitStore(undefined, name);
    }
  }
  return PostgresRateLimitStore;
}
