/**
 * Shared wiring of the catalogue routes: a dedicated connection pool for search (bulkhead: a
 * burst of searches cannot starve carts or orders of connections; no parallel workers per query
 * on a small server), the reference-data cache, the search engine and the price strategy.
 */
import pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { Role } from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { createPool } from '../../db/pool.ts';
import { CatalogueMetaCache } from './catalogue-meta.ts';
import type { CallerContext } from './offers.ts';
import { priceStrategyOf, type PriceStrategy } from './pricing/price-strategy.ts';
import { SearchEngine } from './search/search-engine.ts';
import { IndexSearchEngine } from './search/index/index-engine.ts';
import { SearchIndexHolder } from './search/index/index-holder.ts';
import { warmUpIndex } from './search/index/warm-up.ts';
import { pruneSearchChanges } from './search/index/search-index.repo.ts';
import { HitStore } from './search/hit-store.ts';
import type { ReadModelCache } from '../../http/read-model-cache.ts';

export interface CatalogueContext {
  pool: () => pg.Pool;
  meta: CatalogueMetaCache;
  search: SearchEngine;
  prices: PriceStrategy;
  /** The search hits' store (with a read-model cache to follow); tests and the bench read its counters. */
  hitStore: HitStore | undefined;
  callerContext: (request: FastifyRequest) => Promise<CallerContext>;
  /** Starts the background part: the change-feed pruner of the SQL engine (the index follows the feed once loaded). */
  start: () => void;
  close: () => Promise<void>;
}

/** Connections of the search pool; Postgres time, not connections, is the limit on two cores. */
const SEARCH_POOL_SIZE = 8;

export function createCatalogueContext(
  deps: Pick<AppDeps, 'pool' | 'prices' | 'config'>,
  options: {
    prices?: PriceStrategy;
    engine?: 'index' | 'sql';
    /** Where the index engine keeps its snapshot (DATA_DIR/search-index); none: every start builds. */
    snapshotDir?: string;
    /** The process's read-model cache: the search hits' store and the caller lookups follow its notifications. */
    readModels?: ReadModelCache;
    log?: { warn: (o: object, m: string) => void; info: (o: object, m: string) => void };
  } = {},
): CatalogueContext {
  let pool: pg.Pool | null = null;
  // Created on first use: generating the OpenAPI document registers routes without a database.
  const getPool = () => {
    pool ??= createPool(
      (deps.pool as unknown as { options: { connectionString: string } }).options.connectionString,
      SEARCH_POOL_SIZE,
      { options: '-c max_parallel_workers_per_gather=0 -c jit=off -c statement_timeout=20000' },
    );
    return pool;
  };
  const meta = new CatalogueMetaCache(getPool, { listen: true, log: options.log });
  const prices = options.prices ?? priceStrategyOf(deps);
  // The in-process roaring index (ADR 0003) by default – SQL answers while it is built or loaded;
  // SEARCH_ENGINE=sql: SQL per request only. SEARCH_CACHE=off: no facet/analysis cache in the SQL engine.
  const engine = options.engine ?? deps.config.search.engine;
  const holder =
    engine === 'index'
      ? new SearchIndexHolder(getPool, {
          snapshotDir: options.snapshotDir,
          log: options.log,
          // Before the first index answers: its hot code compiled (warm-up.ts), not in the first minute's searches.
          warmUp: deps.config.search.warmUp
            ? (index) => warmUpIndex(index, { pool: getPool, meta, prices })
            : undefined,
        })
      : null;
  const readModels = options.readModels;
  const hitStore = readModels ? new HitStore(readModels) : undefined;
  const search = holder
    ? new IndexSearchEngine(getPool, meta, () => holder.latest(), {
        ready: () => holder.ready,
        loaded: (maxMs) => holder.whenLoaded(maxMs),
        hitStore,
      })
    : new SearchEngine(getPool, meta, { cache: deps.config.search.cache, hitStore });
  // The change feed (search_changes) is pruned by the index followers; without one, here.
  let pruner: NodeJS.Timeout | null = null;
  return {
    pool: getPool,
    meta,
    search,
    prices,
    hitStore,
    callerContext: async (request) => {
      const caller = callerOf(request);
      return {
        userId: caller.userId,
        bpNumber: caller.bpNumber,
        meta: await meta.get(),
        prices,
        // A seller is a competitor of the other suppliers: only its own offers show their conditions.
        conditionsOnlyFor: caller.role === Role.Seller ? (caller.bpNumber ?? '') : null,
        readModels,
      };
    },
    start: () => {
      if (holder || pruner) return;
      pruner = setInterval(() => void pruneSearchChanges(getPool()).catch(() => {}), 10 * 60_000);
      pruner.unref();
    },
    close: async () => {
      hitStore?.close();
      if (pruner) clearInterval(pruner);
      pruner = null;
      await holder?.close();
      await meta.close();
      await pool?.end();
      pool = null;
    },
  };
}
