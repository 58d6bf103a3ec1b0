/**
 * npm run bench:typo — typo queries without hits, on the catalogue of bench:search (the same BENCH_DATA_DIR, loaded
 * if missing or of another size): the 'typo' queries of the distinct-query generator (search-queries.ts) of the
 * seeds bench:search asks (BENCH_SEED, +1, +2; BENCH_DISTINCT queries each, a tenth of them typos) go through the
 * search engine in this process, one after the other. Prints the share of typo queries without hits, lists them,
 * and the time per typo query (wall clock: write `uptime` beside it).
 *
 * Env: BENCH_DATA_DIR (/tmp/shk-bench-search), BENCH_PG_PORT (55200), BENCH_PRODUCTS (1000000), BENCH_SEED (13),
 * BENCH_DISTINCT (1000), BENCH_ENGINE (index | sql, default index: the API's engine; the index is built first).
 */
import { performance } from 'node:perf_hooks';
import { ensureBenchCatalogue, openBenchDatabase } from './bench-support.ts';
import { CatalogueMetaCache } from '../src/modules/catalogue/catalogue-meta.ts';
import { SearchEngine } from '../src/modules/catalogue/search/search-engine.ts';
import { IndexSearchEngine } from '../src/modules/catalogue/search/index/index-engine.ts';
import { SearchIndex } from '../src/modules/catalogue/search/index/search-index.ts';
import { listPriceStrategy } from '../src/modules/catalogue/pricing/price-strategy.ts';
import { distinctQueries } from './search-queries.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55200);
const products = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const seed = Number(process.env.BENCH_SEED ?? 13);
const count = Number(process.env.BENCH_DISTINCT ?? 1000);
const engineName = process.env.BENCH_ENGINE === 'sql' ? 'sql' : 'index';
const BUYER = { userId: '00000000-0000-4000-8000-000000000001', bpNumber: '100001' };

const { server, pool } = await openBenchDatabase(dataDir, { pgPort, poolSize: 8 });
await ensureBenchCatalogue(pool, products);

const meta = new CatalogueMetaCache(() => pool);
let engine: SearchEngine;
if (engineName === 'index') {
  const t0 = performance.now();
  const index = await SearchIndex.build(pool);
  console.log(`search index built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  engine = new IndexSearchEngine(
    () => pool,
    meta,
    async () => index,
  );
} else engine = new SearchEngine(() => pool, meta, { cache: false });

const queries = [];
for (const s of [seed, seed + 1, seed + 2])
  queries.push(...(await distinctQueries(pool, { seed: s, count })).filter((q) => q.kind === 'typo'));

const caller = { ...BUYER, prices: listPriceStrategy };
const without: { term: string; corrected: string }[] = [];
const ms: number[] = [];
for (const q of queries) {
  const t0 = performance.now();
  const result = await engine.search(caller, q.body as never);
  ms.push(performance.now() - t0);
  if (result.hitCount === 0)
    without.push({
      term: String(q.body.searchTerm),
      corrected: result.correctedTerms.map((c) => `${c.from} → ${c.to.join(' / ')}`).join(', '),
    });
}
ms.sort((a, b) => a - b);
const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(0);
console.log(
  `\nbench:typo — ${products.toLocaleString('de-DE')} products, engine ${engineName}, seeds ${seed}–${seed + 2}: ` +
    `${queries.length} typo queries, ${without.length} without hits (${((100 * without.length) / queries.length).toFixed(1)} %); ` +
    `per typo query p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (one after the other)`,
);
for (const w of without) console.log(`  no hits: ${w.term}${w.corrected ? ` (corrected: ${w.corrected})` : ''}`);
await pool.end();
await server.stop();
