/**
 * npm run bench:search-profile — the distinct queries of bench:search one after the other in one process (no HTTP, no
 * concurrency): per query kind the CPU time of a search (process.cpuUsage: the API's own work, the Postgres round
 * trips' waits not counted) including the answer's encoding by its schema and JSON text (as the route sends it,
 * without compression), which kinds make the slowest 5 %, and where their time goes (phase-clock.ts): the index
 * engine's synchronous phases (word bitmaps, dimensions, facet counts, feature statistics, pages) and what surrounds
 * them (query analysis, filter options, hydration of the page's hits, answer building, serialisation); 'rest' is the
 * CPU no phase accounts for (request normalisation, promise plumbing, garbage collection between the phases).
 *
 * The index is loaded from the snapshot of BENCH_DATA_DIR (as a restarted API does), else built. Env as bench:search:
 * BENCH_DATA_DIR, BENCH_PG_PORT, BENCH_SEED (15: the queries of bench:search's restart round with BENCH_SEED=14),
 * BENCH_DISTINCT (1500), BENCH_HIT_STORE (on: the hits' store as in the API; off: hydration from Postgres), BENCH_REPEAT (1: passes over the queries; from the second on, the words' merged postings are
 * kept as after a warm-up). BENCH_PROFILE_SLOWEST=<n> also lists the n slowest queries; BENCH_PROFILE_DUMP=<file>
 * writes every query's kind, hits, CPU and phases (tab-separated). BENCH_PROFILE_HEAP=1 also prints the bytes the
 * phases allocate per search (run with NODE_OPTIONS=--max-semi-space-size=64, see phase-clock.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { EMBEDDED_DATABASE } from '../src/db/bootstrap.ts';
import { createPool } from '../src/db/pool.ts';
import { CatalogueMetaCache } from '../src/modules/catalogue/catalogue-meta.ts';
import { listPriceStrategy } from '../src/modules/catalogue/pricing/price-strategy.ts';
import { ReadModelCache } from '../src/http/read-model-cache.ts';
import { HitStore } from '../src/modules/catalogue/search/hit-store.ts';
import { IndexSearchEngine } from '../src/modules/catalogue/search/index/index-engine.ts';
import {
  ANSWER_PHASES,
  INDEX_PHASES,
  phaseClock,
  type Phase,
} from '../src/modules/catalogue/search/index/phase-clock.ts';
import { SearchResponse } from '@shk/contracts';
import { safeEncode } from 'zod';
import { SearchIndex } from '../src/modules/catalogue/search/index/search-index.ts';
import { distinctQueries, QUERY_KINDS, type BenchQuery } from './search-queries.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const server = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), Number(process.env.BENCH_PG_PORT ?? 55200));
const pool = createPool(server.url(EMBEDDED_DATABASE), 8, {
  options: '-c max_parallel_workers_per_gather=0 -c jit=off',
});
const snapshotFile = path.join(dataDir, 'search-index', 'snapshot.bin');
const t0 = performance.now();
const index = fs.existsSync(snapshotFile)
  ? SearchIndex.readSnapshot(snapshotFile)?.index
  : await SearchIndex.build(pool);
if (!index) throw new Error(`snapshot ${snapshotFile} not readable`);
console.log(`index ready after ${((performance.now() - t0) / 1000).toFixed(1)} s, ${index.size} products`);
const meta = new CatalogueMetaCache(() => pool);
// The page's hits from the hits' store as in the API (filled from Postgres on first sight); BENCH_HIT_STORE=off: from
// Postgres every time.
const readModels = process.env.BENCH_HIT_STORE === 'off' ? null : new ReadModelCache(pool);
await readModels?.start();
const hitStore = readModels ? new HitStore(readModels) : undefined;
const engine = new IndexSearchEngine(
  () => pool,
  meta,
  async () => index,
  { hitStore },
);
const queries = await distinctQueries(pool, {
  seed: Number(process.env.BENCH_SEED ?? 15),
  count: Number(process.env.BENCH_DISTINCT ?? 1500),
});
// As the route's caller: the relations, supplier settings and favourites kept by the read-model cache.
const caller = {
  userId: '00000000-0000-4000-8000-000000000001',
  bpNumber: '100001',
  prices: listPriceStrategy,
  readModels: readModels ?? undefined,
};
const PHASES: Phase[] = [...INDEX_PHASES, ...ANSWER_PHASES];

interface Measured {
  query: BenchQuery;
  cpuMs: number;
  phases: Map<Phase, number>;
  total: number;
  /** Characters of the answer's JSON text. */
  chars: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const heapMeasured = process.env.BENCH_PROFILE_HEAP === '1';
const allocated = new Map<Phase, number>();

async function pass(): Promise<Measured[]> {
  const out: Measured[] = [];
  phaseClock.enabled = true;
  allocated.clear();
  if (heapMeasured) phaseClock.allocations = allocated;
  for (const query of queries) {
    phaseClock.take();
    const before = process.cpuUsage();
    const answer = await engine.search(caller, query.body as never);
    // As the route's serializer does (fastify-type-provider-zod): encoded by the schema, then JSON.
    const text = phaseClock.measure('serialisation', () => JSON.stringify(safeEncode(SearchResponse, answer).data));
    const used = process.cpuUsage(before);
    const cpuMs = (used.user + used.system) / 1000;
    const phases = phaseClock.take();
    phases.set('rest' as Phase, cpuMs - sum([...phases.values()]));
    out.push({ query, cpuMs, phases, total: answer.hitCount, chars: text.length });
  }
  phaseClock.enabled = false;
  return out;
}

const repeat = Number(process.env.BENCH_REPEAT ?? 1);
let measured: Measured[] = [];
for (let r = 0; r < repeat; r++) measured = await pass();

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const all = measured.map((m) => m.cpuMs);
const slowFrom = pct(all, 0.95);
const slowest = measured.filter((m) => m.cpuMs >= slowFrom);
const SHOWN: Phase[] = [...PHASES, 'rest' as Phase];
const phaseMean = (ms: Measured[], phase: Phase) =>
  ms.length ? sum(ms.map((m) => m.phases.get(phase) ?? 0)) / ms.length : 0;
console.log(
  `\n${measured.length} distinct queries, one after the other: CPU per search mean ${(sum(all) / all.length).toFixed(2)} ms, p50 ${pct(all, 0.5).toFixed(1)} / p95 ${slowFrom.toFixed(1)} / p99 ${pct(all, 0.99).toFixed(1)} ms`,
);
console.log(
  `answer: ${(sum(measured.map((m) => m.chars)) / measured.length / 1024).toFixed(1)} KB of JSON text per search (mean); heap used now ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
);
console.log(
  `| kind | queries | CPU mean ms | p50 | p95 | max | share of all CPU | in slowest 5 % | ${SHOWN.join(' | ')} (mean ms) |`,
);
console.log(`|---|---|---|---|---|---|---|---|${SHOWN.map(() => '---').join('|')}|`);
const totalCpu = sum(all);
for (const kind of QUERY_KINDS) {
  const ms = measured.filter((m) => m.query.kind === kind);
  const xs = ms.map((m) => m.cpuMs);
  if (!xs.length) continue;
  console.log(
    `| ${kind} | ${xs.length} | ${(sum(xs) / xs.length).toFixed(2)} | ${pct(xs, 0.5).toFixed(1)} | ${pct(xs, 0.95).toFixed(1)} | ${Math.max(...xs).toFixed(1)} | ${((100 * sum(xs)) / totalCpu).toFixed(1)} % | ${slowest.filter((m) => m.query.kind === kind).length} | ${SHOWN.map((p) => phaseMean(ms, p).toFixed(2)).join(' | ')} |`,
  );
}
console.log(
  `| all | ${measured.length} | ${(sum(all) / all.length).toFixed(2)} | ${pct(all, 0.5).toFixed(1)} | ${slowFrom.toFixed(1)} | ${Math.max(...all).toFixed(1)} | 100 % | ${slowest.length} | ${SHOWN.map((p) => phaseMean(measured, p).toFixed(2)).join(' | ')} |`,
);
console.log(
  `slowest 5 % (≥ ${slowFrom.toFixed(1)} ms, ${slowest.length} queries): CPU mean ${(sum(slowest.map((m) => m.cpuMs)) / slowest.length).toFixed(1)} ms; phases ${SHOWN.map((p) => `${p} ${phaseMean(slowest, p).toFixed(2)}`).join(', ')}`,
);
const listed = Number(process.env.BENCH_PROFILE_SLOWEST ?? 0);
for (const m of [...measured].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, listed))
  console.log(
    `  ${m.cpuMs.toFixed(1)} ms ${m.query.kind} ${JSON.stringify(m.query.body)} hits ${m.total}; ${SHOWN.map((p) => `${p} ${(m.phases.get(p) ?? 0).toFixed(1)}`).join(', ')}`,
  );
if (heapMeasured)
  console.log(
    `allocated per search (KB): ${[...allocated].map(([p, bytes]) => `${p} ${(bytes / measured.length / 1024).toFixed(1)}`).join(', ')}`,
  );
const dump = process.env.BENCH_PROFILE_DUMP;
if (dump)
  fs.writeFileSync(
    dump,
    measured
      .map((m) =>
        [m.query.kind, m.total, m.cpuMs.toFixed(2), ...SHOWN.map((p) => (m.phases.get(p) ?? 0).toFixed(2))].join('\t'),
      )
      .join('\n'),
  );
await readModels?.close();
await pool.end();
await server.stop();
