/**
 * npm run bench:search-index — build, memory and snapshot of the in-process search index at a catalogue size.
 *
 * Uses (or loads) the catalogue of BENCH_PRODUCTS (1,000,000) under BENCH_DATA_DIR like bench:search (the same
 * database, so `BENCH_DATA_DIR=… BENCH_PRODUCTS=5000000 npm run bench:search-index` after
 * `DATA_DIR=… npm run seed -- --products 5000000` reuses the seeded catalogue). In this process (node --expose-gc):
 * 1. builds the index from Postgres (SearchIndex.build, as the API does at start): time, RSS growth, roaring memory;
 * 2. memory per structure (bitmaps by kind, columns, orders) and bytes per product;
 * 3. writes the snapshot (time, size), frees the index and loads the snapshot again (time = a restart's load;
 *    RSS after it); checks that the loaded index has the same size and lexemes.
 * Prints one row of the scale table (docs/performance.md) with the load average beside it.
 *
 * Env: BENCH_DATA_DIR (/tmp/shk-bench-search), BENCH_PG_PORT (55200), BENCH_PRODUCTS (1000000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import roaring from 'roaring';
import { ensureBenchCatalogue, openBenchDatabase, postgresCpuMs } from './bench-support.ts';
import { SearchIndex } from '../src/modules/catalogue/search/index/search-index.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55200);
const products = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const MB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const load = () => os.loadavg()[0].toFixed(1);
const rssMb = () => process.memoryUsage().rss / MB;

const { server, pool } = await openBenchDatabase(dataDir, { pgPort, poolSize: 4 });
await ensureBenchCatalogue(pool, products);

console.log(`\nbench:search-index — ${products.toLocaleString('de-DE')} products (load ${load()})`);
gc();
const rss0 = rssMb();
const pgDir = path.join(dataDir, 'postgres');
const pgCpu0 = postgresCpuMs(pgDir);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let index: SearchIndex | null = await SearchIndex.build(pool);
const buildS = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const buildCpu = { node: (cpu.user + cpu.system) / 1e6, postgres: (postgresCpuMs(pgDir) - pgCpu0) / 1000 };
gc();
const rssBuilt = rssMb();
const size = index.size;
const lexemes = index.lexemes.size;
console.log(
  `build: ${size.toLocaleString('de-DE')} products, ${lexemes.toLocaleString('de-DE')} lexemes in ${buildS.toFixed(1)} s (load ${load()}); RSS +${(rssBuilt - rss0).toFixed(0)} MB, roaring ${(roaring.getRoaringUsedMemory() / MB).toFixed(0)} MB`,
);

const report = index.memoryReport();
let structureBytes = 0;
console.log('\n| structure | MB | bytes per product |\n|---|---|---|');
for (const [key, bytes] of Object.entries(report)) {
  if (key === 'lexemes.count') continue;
  structureBytes += bytes;
  console.log(`| ${key} | ${(bytes / MB).toFixed(1)} | ${(bytes / size).toFixed(1)} |`);
}
console.log(`| total | ${(structureBytes / MB).toFixed(1)} | ${(structureBytes / size).toFixed(1)} |`);

const snapshotFile = path.join(dataDir, 'bench-search-index.snapshot');
const t1 = performance.now();
const snapshotBytes = index.writeSnapshot(snapshotFile, { savedAt: Date.now() });
const writeS = (performance.now() - t1) / 1000;
console.log(`\nsnapshot: ${(snapshotBytes / MB).toFixed(0)} MB written in ${writeS.toFixed(1)} s (load ${load()})`);
index = null;
gc();
const rssFreed = rssMb();
const t2 = performance.now();
const loaded = SearchIndex.readSnapshot(snapshotFile)!.index;
const readS = (performance.now() - t2) / 1000;
gc();
const rssLoaded = rssMb();
if (loaded.size !== size || loaded.lexemes.size !== lexemes) throw new Error('snapshot: loaded index differs');
console.log(
  `snapshot loaded in ${readS.toFixed(1)} s (load ${load()}); RSS ${rssLoaded.toFixed(0)} MB (before the load ${rssFreed.toFixed(0)} MB, process at start ${rss0.toFixed(0)} MB)`,
);
fs.rmSync(snapshotFile, { force: true });

const indexMb = rssLoaded - rss0;
console.log(
  '\n| products | index build s (CPU Node + Postgres) | snapshot load s | index structures MB | bytes per product | RSS after load − at start, MB | load |',
);
console.log('|---|---|---|---|---|---|---|');
console.log(
  `| ${size.toLocaleString('de-DE')} | ${buildS.toFixed(1)} (${buildCpu.node.toFixed(1)} + ${buildCpu.postgres.toFixed(1)}) | ${readS.toFixed(1)} | ${(structureBytes / MB).toFixed(0)} | ${(structureBytes / size).toFixed(0)} | ${indexMb.toFixed(0)} | ${load()} |`,
);
await pool.end();
await server.stop();
