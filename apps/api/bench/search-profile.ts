/**
 * Profile of the index engine in one process (no HTTP): index build phases and the time of each
 * distinct query, sequentially, split into analysis (Postgres) and the rest.
 * Env as bench:search (BENCH_DATA_DIR, BENCH_PG_PORT); the catalogue must be loaded already.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { EMBEDDED_DATABASE } from '../src/db/bootstrap.ts';
import { createPool } from '../src/db/pool.ts';
import { CatalogueMetaCache } from '../src/modules/catalogue/catalogue-meta.ts';
import { listPriceStrategy } from '../src/modules/catalogue/pricing/price-strategy.ts';
import { IndexSearchEngine } from '../src/modules/catalogue/search/index/index-engine.ts';
import { SearchIndex } from '../src/modules/catalogue/search/index/search-index.ts';
import { distinctQueries, QUERY_KINDS } from './search-queries.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const server = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), Number(process.env.BENCH_PG_PORT ?? 55200));
const pool = createPool(server.url(EMBEDDED_DATABASE), 8, {
  options: '-c max_parallel_workers_per_gather=0 -c jit=off',
});
const t0 = performance.now();
const index = await SearchIndex.build(pool);
console.log(`build ${((performance.now() - t0) / 1000).toFixed(1)} s, ${index.size} products`);
const meta = new CatalogueMetaCache(() => pool);
const engine = new IndexSearchEngine(
  () => pool,
  meta,
  async () => index,
);
const queries = await distinctQueries(pool, { seed: 13, count: Number(process.env.BENCH_DISTINCT ?? 300) });
const byKind = new Map<string, number[]>();
const caller = { userId: '00000000-0000-4000-8000-000000000001', bpNumber: '100001', prices: listPriceStrategy };
for (const q of queries) {
  const t = performance.now();
  await engine.search(caller, q.body as never);
  byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), performance.now() - t]);
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
for (const kind of QUERY_KINDS) {
  const xs = byKind.get(kind) ?? [];
  console.log(
    `${kind}: n ${xs.length} p50 ${pct(xs, 0.5)?.toFixed(1)} p95 ${pct(xs, 0.95)?.toFixed(1)} max ${Math.max(...xs).toFixed(1)}`,
  );
}
await pool.end();
await server.stop();
