/**
 * npm run bench:search — product search on a large generated catalogue (default 1,000,000 products).
 *
 * 1. Starts (or reuses) an embedded PostgreSQL under BENCH_DATA_DIR and loads the catalogue if it
 *    is missing or has another size (load time is reported).
 * 2. Starts the API as its own process (so its peak memory can be read; compiled as `npm start` runs it,
 *    BENCH_API=tsx from the TypeScript source) and signs in a buyer.
 * 3. Cold pass: every query of the mix once, one after the other, right after start (empty caches).
 * 4. Warm: BENCH_CLIENTS (8) clients send the mix over HTTP for BENCH_SECONDS.
 * 5. Raw SQL: the same mix, the same SQL statements the search issues, straight on a pg pool with
 *    8 concurrent clients and no cache (no HTTP, no JSON, no auth).
 * 6. With BENCH_UNCACHED=1 also the API with SEARCH_CACHE=off (every request computed from scratch).
 * 7. Distinct queries: BENCH_DISTINCT (1000) seeded, distinct requests generated from the
 *    catalogue (search-queries.ts: word, part word, compound, multi-word, brand/class filter, typo,
 *    sort, deep page, article number, GTIN), each asked once by BENCH_CLIENTS clients against a freshly
 *    started API (first occurrences): p50/p95/p99 per kind and the typo queries without hits (share and list); then
 *    the typo recall table (BENCH_TYPO_CASES cases per word size, typo-sample.ts) through the API.
 *    BENCH_DISTINCT_ONLY=1 runs only this phase; BENCH_SEED (13) chooses the queries; BENCH_ROUNDS
 *    (fresh,typo,restart,two; `again` after restart: seed + 3 on the same process) picks the rounds (restart alone
 *    loads the snapshot a fresh round saved, without the build). npm run bench:typo asks only the typo queries of these seeds, in process (typo-hits.ts).
 *
 * Env: BENCH_DATA_DIR (/tmp/shk-bench-search), BENCH_PG_PORT (55200), BENCH_PRODUCTS (1000000),
 * BENCH_SECONDS (45), BENCH_CLIENTS (8), BENCH_API_NODE_ARGS (node options of the API processes), BENCH_PG_SOCKET
 * (a directory: the API processes reach Postgres through its Unix socket there, e.g. /tmp), BENCH_API_PORT (3200), BENCH_DISTINCT (1500), BENCH_TYPO_CASES (200),
 * BENCH_ENGINE (index | sql: the engine of the distinct-query phase, default index), BENCH_CPU_PROFILE=<dir> (V8 CPU
 * profiles of the API processes, written when they stop), BENCH_PG_STATS=1 (Postgres restarted with
 * pg_stat_statements; the costliest statements of each distinct-query run are printed). Each distinct-query run
 * reports the CPU per search of the API processes and of Postgres (/proc).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import pg from 'pg';
import { Pool } from 'undici';
import {
  ensureBenchCatalogue,
  openBenchDatabase,
  postgresCpuMs,
  processCpuMs,
  startApiProcess,
} from './bench-support.ts';
import { CatalogueMetaCache } from '../src/modules/catalogue/catalogue-meta.ts';
import { SearchEngine } from '../src/modules/catalogue/search/search-engine.ts';
import { listPriceStrategy } from '../src/modules/catalogue/pricing/price-strategy.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';
import { recallTable, typoCases } from '../src/modules/catalogue/search/typo-sample.ts';
import { distinctQueries, QUERY_KINDS, type BenchQuery } from './search-queries.ts';
import { SearchIndex } from '../src/modules/catalogue/search/index/search-index.ts';
import roaring from 'roaring';

const { getRoaringUsedMemory } = roaring;

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55200);
const products = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 45);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const apiPort = Number(process.env.BENCH_API_PORT ?? 3200);
/** Engine of the distinct-query phase (SEARCH_ENGINE of the API): index (ADR 0003) or sql. */
const engineName = process.env.BENCH_ENGINE === 'sql' ? 'sql' : 'index';
const BUYER = { email: 'einkauf@example.com', userId: '00000000-0000-4000-8000-000000000001', bpNumber: '100001' };

// ——— database ———
const { server, databaseUrl, pool } = await openBenchDatabase(dataDir, {
  pgPort,
  pgStats: Boolean(process.env.BENCH_PG_STATS),
  poolSize: 12,
});
await ensureBenchCatalogue(pool, products);

// ——— query mix ———
const code = async (sql: string) => (await pool.query<{ v: string }>(sql)).rows[0].v;
const n = Math.max(1, Math.floor(products / 7));
const codes = {
  gtin: await code(`SELECT gtin AS v FROM products WHERE id >= ${n} AND gtin IS NOT NULL ORDER BY id LIMIT 1`),
  gtin2: await code(`SELECT gtin AS v FROM products WHERE id >= ${n * 5} AND gtin IS NOT NULL ORDER BY id LIMIT 1`),
  mpid: await code(
    `SELECT manufacturer_pid AS v FROM products WHERE id >= ${n * 3} AND manufacturer_pid ~ '[.-]' ORDER BY id LIMIT 1`,
  ),
  supplierPid: await code(
    `SELECT supplier_pid AS v FROM product_offers WHERE product_no >= ${n * 2} AND supplier_bp_number = '200002' ORDER BY product_no LIMIT 1`,
  ),
  catalogue: await code(`SELECT article_number_catalogue AS v FROM products WHERE id >= ${n * 4} ORDER BY id LIMIT 1`),
  classId: await code(`SELECT class_id AS v FROM etim_classes WHERE description = 'Thermostatventil'`),
  pipeClass: await code(`SELECT class_id AS v FROM etim_classes WHERE description = 'Kupferrohr'`),
};
const f = {
  brand: (v: string) => ({ columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: v }] }),
  cls: (v: string) => ({ columnName: 'etimKlasse', filterType: 'Auswahl', filterValue: [{ value: v }] }),
  tree: (v: string) => ({ columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: v }] }),
  price: (min: number, max: number) => ({
    columnName: 'mhk_handelsdaten_preis',
    filterType: 'Regler',
    sliderValues: { minValue: min, maxValue: max },
  }),
  slider: (col: string, min: number, max: number) => ({
    columnName: col,
    filterType: 'Regler',
    sliderValues: { minValue: min, maxValue: max },
  }),
};
type Query = { kind: string; body: Record<string, unknown> };
const mix: Query[] = [
  ...['Rohr', 'Ventil', 'Heizkörper', 'Thermostat', 'Pressfitting', 'Kugelhahn', 'Edelstahl', 'Messing'].map((t) => ({
    kind: 'broad word',
    body: { searchTerm: t },
  })),
  ...[
    'Thermostatventil',
    'Heizkörperverschraubung',
    'Membranausdehnungsgefäß',
    'Fußbodenheizungsrohr',
    'Mehrschichtverbundrohr',
    'verschraubung',
    'Heizkoerper',
  ].map((t) => ({ kind: 'compound / part word', body: { searchTerm: t } })),
  ...['Termostatkopf', 'Kugelhan', 'Heitzkörper', 'Presfitting'].map((t) => ({
    kind: 'typo',
    body: { searchTerm: t },
  })),
  ...[codes.gtin, codes.gtin2, codes.mpid, codes.supplierPid, codes.catalogue].map((t) => ({
    kind: 'article number',
    body: { searchTerm: t },
  })),
  ...['Pressfitting Edelstahl 22', 'Thermostatventil Eckform DN 15', 'Kupferrohr 15'].map((t) => ({
    kind: 'several words',
    body: { searchTerm: t },
  })),
  { kind: 'filtered', body: { searchTerm: 'Ventil', filter: [f.brand('AquaTherm')] } },
  { kind: 'filtered', body: { searchTerm: 'Rohr', filter: [f.cls(codes.pipeClass)] } },
  { kind: 'filtered', body: { searchTerm: 'Heizkörper', filter: [f.price(100, 400)] } },
  { kind: 'filtered', body: { filter: [f.cls(codes.classId), f.slider('EF000008', 15, 15)] } },
  { kind: 'filtered', body: { filter: [f.tree('SHKMARKET_2')] } },
  {
    kind: 'filtered',
    body: { searchTerm: 'Pressfitting', filter: [f.tree('SHKMARKET_4'), f.brand('Pressline'), f.price(2, 20)] },
  },
  { kind: 'deep page', body: { searchTerm: 'Rohr', page: 40 } },
  { kind: 'deep page', body: { searchTerm: 'Ventil', page: 100 } },
  { kind: 'deep page', body: { page: 100 } },
  { kind: 'sorted', body: { searchTerm: 'Heizkörper', sortColumn: 'artikelbeschreibung', sortOrder: 'asc' } },
  {
    kind: 'sorted',
    body: { searchTerm: 'Pressfitting', sortColumn: 'artikelbeschreibung', sortOrder: 'desc', page: 3 },
  },
].map((q) => ({ ...q, body: { page: 1, pageSize: 25, ...q.body } }));

// ——— API process ———
function startApi(extraEnv: Record<string, string> = {}, port = apiPort): Promise<ChildProcess> {
  return startApiProcess({
    port,
    timeoutMs: 120_000,
    nodeArgs: [
      ...(process.env.BENCH_CPU_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`]
        : []),
      // Node options of the API processes to compare (e.g. --max-semi-space-size=64).
      ...(process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: { DATABASE_URL: apiDatabaseUrl(), PUBLIC_URL: `http://127.0.0.1:${apiPort}`, DATA_DIR: dataDir, ...extraEnv },
  });
}
/** The API's database address: TCP on loopback, or with BENCH_PG_SOCKET=<dir> Postgres' Unix socket in that directory. */
function apiDatabaseUrl(): string {
  const socketDir = process.env.BENCH_PG_SOCKET;
  if (!socketDir) return databaseUrl;
  // libpq's and pg's `host` parameter: a directory means the socket .s.PGSQL.<port> in it.
  const url = new URL(databaseUrl);
  url.searchParams.set('host', socketDir);
  return url.toString();
}
const rssMb = (pid: number) =>
  Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
const peakRssMb = (pid: number) =>
  Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024;
async function stopApi(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

// ——— measuring ———
interface Stats {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
}
function stats(latencies: number[], errors: number, elapsedMs: number): Stats {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return {
    count: sorted.length,
    errors,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? 0,
    rps: sorted.length / (elapsedMs / 1000),
  };
}

async function run(
  send: (q: Query) => Promise<boolean>,
  durationS: number,
): Promise<Stats & { byKind: Record<string, number> }> {
  const latencies: number[] = [];
  const byKind = new Map<string, number[]>();
  let errors = 0;
  const started = performance.now();
  const end = started + durationS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = c * 5; performance.now() < end; k++) {
        const q = mix[k % mix.length];
        const t0 = performance.now();
        const ok = await send(q).catch(() => false);
        const ms = performance.now() - t0;
        if (!ok) errors++;
        latencies.push(ms);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
    }),
  );
  const result = stats(latencies, errors, performance.now() - started);
  return { ...result, byKind: Object.fromEntries([...byKind].map(([k, v]) => [k, stats(v, 0, 1).p95])) };
}

const fmt = (s: Stats) =>
  `p50 ${s.p50.toFixed(1)} ms | p95 ${s.p95.toFixed(1)} ms | p99 ${s.p99.toFixed(1)} ms | max ${s.max.toFixed(0)} ms | ${s.rps.toFixed(1)} req/s | ${s.count} requests, ${s.errors} errors`;

async function apiPhase(label: string, env: Record<string, string> = {}) {
  const child = await startApi(env);
  const token = (await loginWithCodeFlow(`http://127.0.0.1:${apiPort}`, BUYER.email)).access_token;
  const send = async (q: Query) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}/v1/Product/Search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(q.body),
    });
    await res.arrayBuffer();
    return res.ok;
  };
  // Cold: each query once, one after the other, on empty caches.
  const cold: number[] = [];
  const coldByQuery: string[] = [];
  for (const q of mix) {
    const t0 = performance.now();
    const ok = await send(q);
    const ms = performance.now() - t0;
    cold.push(ms);
    coldByQuery.push(`${ms.toFixed(0).padStart(6)} ms  ${ok ? '' : 'FAILED '}${q.kind}: ${JSON.stringify(q.body)}`);
  }
  const warm = await run(send, seconds);
  const peak = peakRssMb(child.pid!);
  await stopApi(child);
  console.log(
    `\n${label}\n  cold (1 client, each query once): ${fmt(
      stats(
        cold,
        0,
        cold.reduce((a, b) => a + b, 0),
      ),
    )}`,
  );
  console.log(`  ${clients} clients, ${seconds} s: ${fmt(warm)}`);
  console.log(
    `  p95 by kind: ${Object.entries(warm.byKind)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join(', ')}`,
  );
  console.log(`  API peak memory (VmHWM): ${peak.toFixed(0)} MB`);
  if (process.env.BENCH_VERBOSE) console.log(coldByQuery.join('\n'));
  return { cold: stats(cold, 0, 1), warm, peak };
}

/**
 * Distinct queries, each asked once (first occurrences on a freshly started API), by kind; then the
 * typo recall through the API: the intended product on page one for the typo of its own words.
 */
/** Sends each query once, BENCH_CLIENTS at a time, spread over the API ports; latencies by kind. */
async function askOnce(queries: BenchQuery[], ports: number[], token: string, label: string, apiPids: number[] = []) {
  if (process.env.BENCH_PG_STATS) {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
  }
  const apiCpu = () => apiPids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const apiCpu0 = apiCpu();
  const pgCpu0 = postgresCpuMs(path.join(dataDir, 'postgres'));
  const benchCpu0 = process.cpuUsage();
  const load0 = os.loadavg()[0];
  const startedAt = new Date();
  const byKind = new Map<string, number[]>();
  const typosWithoutHits: string[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const port = ports[c % ports.length];
      while (next < queries.length) {
        const q = queries[next++];
        const t0 = performance.now();
        // Only a typo query's answer is read (its hit count); the others are received whole and not decoded.
        const res = await searchOn(port, token, q.body, q.kind === 'typo').catch(() => null);
        const ms = performance.now() - t0;
        if (!res?.ok) errors++;
        else if (q.kind === 'typo' && res.body?.hitCount === 0) typosWithoutHits.push(String(q.body.searchTerm));
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const apiCpuRun = apiCpu() - apiCpu0;
  const pgCpuRun = postgresCpuMs(path.join(dataDir, 'postgres')) - pgCpu0;
  const benchCpu = process.cpuUsage(benchCpu0);
  const benchCpuRun = (benchCpu.user + benchCpu.system) / 1000;
  const all = [...byKind.values()].flat();
  const overall = stats(all, errors, elapsed);
  console.log(`\n${label}: ${fmt(overall)}`);
  console.log(
    `  load (1 min) ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}; ${startedAt.toISOString()} – ${new Date().toISOString()}`,
  );
  console.log(
    `  CPU per search: API ${(apiCpuRun / queries.length).toFixed(1)} ms, Postgres ${(pgCpuRun / queries.length).toFixed(1)} ms, bench clients ${(benchCpuRun / queries.length).toFixed(1)} ms`,
  );
  console.log('  | kind | queries | p50 ms | p95 ms | p99 ms |\n  |---|---|---|---|---|');
  for (const kind of QUERY_KINDS) {
    const s = stats(byKind.get(kind) ?? [], 0, 1);
    console.log(`  | ${kind} | ${s.count} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${s.p99.toFixed(0)} |`);
  }
  const typos = byKind.get('typo')?.length ?? 0;
  console.log(
    `  typo queries without hits: ${typosWithoutHits.length} of ${typos} (${((100 * typosWithoutHits.length) / Math.max(1, typos)).toFixed(1)} %)${typosWithoutHits.map((t) => `\n    ${t}`).join('')}`,
  );
  if (process.env.BENCH_PG_STATS) {
    const { rows } = await pool.query<{ calls: number; total_ms: number; mean_ms: string; query: string }>(
      `SELECT calls::int, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 2) AS mean_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
         FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 15`,
    );
    console.log('  costliest statements: | calls | total ms | mean ms | statement |');
    for (const r of rows) console.log(`  | ${r.calls} | ${r.total_ms} | ${r.mean_ms} | ${r.query} |`);
  }
  return overall;
}

/** A token renewed after a 401 (access tokens live 5 minutes; a slow run outlives one), used from then on. */
let renewedToken: string | null = null;
/** One keep-alive pool per API port (undici's request(): no fetch layers, see http-client.ts). */
const clientsByPort = new Map<number, Pool>();
const clientOf = (port: number) => {
  let client = clientsByPort.get(port);
  if (!client) clientsByPort.set(port, (client = new Pool(`http://127.0.0.1:${port}`, { keepAliveTimeout: 30_000 })));
  return client;
};
type SearchAnswer = { hits: { productId: string }[]; hitCount: number };
/**
 * One search as fetch sends it over http (`accept-encoding: gzip, deflate`: the API compresses as for fetch). The
 * answer is read whole, but decompressed and parsed only when the caller needs it (`read`): the bench's clients share
 * the two cores with the API and Postgres, and a search answer's gunzip and JSON.parse cost them about as much as its
 * compression costs the API.
 */
async function searchOn(
  port: number,
  token: string,
  body: Record<string, unknown>,
  read = false,
): Promise<{ ok: boolean; body: SearchAnswer | null }> {
  const send = (t: string) =>
    clientOf(port).request({
      method: 'POST',
      path: '/v1/Product/Search',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate' },
      body: JSON.stringify(body),
    });
  let res = await send(renewedToken ?? token);
  if (res.statusCode === 401) {
    await res.body.arrayBuffer();
    renewedToken = (await loginWithCodeFlow(`http://127.0.0.1:${apiPort}`, BUYER.email)).access_token;
    res = await send(renewedToken);
  }
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  const raw = Buffer.from(await res.body.arrayBuffer());
  if (!read && (ok || !process.env.BENCH_DEBUG)) return { ok, body: null };
  const text = (res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
  if (!ok) console.log(res.statusCode, text.slice(0, 300));
  return { ok, body: JSON.parse(text) as SearchAnswer };
}

/**
 * Starts API processes and waits for their first search. The index engine answers through SQL while it builds or
 * loads its index; with waitForIndex (the fresh process, whose snapshot was removed) the round starts once the
 * built index was saved as a snapshot, so it measures the index and not the build.
 */
async function startReady(ports: number[], label: string, options: { waitForIndex?: boolean } = {}) {
  const t0 = performance.now();
  const children = await Promise.all(ports.map((port) => startApi({ SEARCH_ENGINE: engineName }, port)));
  const token = (await loginWithCodeFlow(`http://127.0.0.1:${apiPort}`, BUYER.email)).access_token;
  await Promise.all(ports.map((port) => searchOn(port, token, { page: 1, pageSize: 1, searchTerm: 'zzzzbenchready' })));
  const snapshot = path.join(dataDir, 'search-index', 'snapshot.bin');
  if (engineName === 'index' && options.waitForIndex) {
    const deadline = Date.now() + 600_000;
    while (!fs.existsSync(snapshot) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    console.log(`\n${label}: index built and saved after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const readyS = (performance.now() - t0) / 1000;
  console.log(
    `\n${label} (engine ${engineName}): started and first search answered after ${readyS.toFixed(1)} s (load ${loadAverage()}); peak RSS ${children.map((c) => peakRssMb(c.pid!).toFixed(0)).join(' + ')} MB`,
  );
  return { children, token, readyS };
}

/**
 * Distinct queries, each asked once (first occurrences): on a fresh API process (the index engine
 * builds its index; the snapshot of earlier runs is removed first), after a restart (it loads the
 * snapshot) and on two API processes on one database – each with its own seeded queries. Then the
 * typo recall through the API: the intended product on page one for the typo of its own words.
 */
async function distinctPhase() {
  const seed = Number(process.env.BENCH_SEED ?? 13);
  const count = Number(process.env.BENCH_DISTINCT ?? 1500);
  const rounds = new Set((process.env.BENCH_ROUNDS ?? 'fresh,typo,restart,two').split(','));
  let buildS = NaN;
  if (engineName === 'index' && rounds.has('fresh')) {
    // Build time and memory of the index alone (the API builds the same at start).
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const built = await SearchIndex.build(pool);
    const ms = performance.now() - t0;
    buildS = ms / 1000;
    console.log(
      `\nSearch index build (load ${loadAverage()}): ${built.size.toLocaleString('de-DE')} products, ${built.lexemes.size.toLocaleString('de-DE')} lexemes in ${(ms / 1000).toFixed(1)} s; RSS +${((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(0)} MB, roaring memory ${(getRoaringUsedMemory() / 2 ** 20).toFixed(0)} MB`,
    );
    fs.rmSync(path.join(dataDir, 'search-index'), { recursive: true, force: true });
  }
  let fresh: ReturnType<typeof stats> | undefined;
  let freshPeakMb = NaN;
  let freshLoad = '';
  if (rounds.has('fresh') || rounds.has('typo')) {
    const first = await startReady([apiPort], 'Fresh API process', { waitForIndex: rounds.has('fresh') });
    if (rounds.has('fresh')) {
      fresh = await askOnce(
        await distinctQueries(pool, { seed, count }),
        [apiPort],
        first.token,
        `Distinct queries, each once (first occurrence), ${clients} clients, fresh API process, seed ${seed}`,
        first.children.map((c) => c.pid!),
      );
      freshPeakMb = peakRssMb(first.children[0].pid!);
      freshLoad = loadAverage();
      console.log(
        `  peak RSS of the API process after the distinct queries: ${freshPeakMb.toFixed(0)} MB, now ${rssMb(first.children[0].pid!).toFixed(0)} MB`,
      );
    }
    if (rounds.has('typo')) await typoRecall(seed, first.token);
    await stopApi(first.children[0]);
  }
  let restartedReadyS = NaN;
  let restartedPeakMb = NaN;
  if (rounds.has('restart')) {
    const restarted = await startReady([apiPort], 'Restarted API process');
    restartedReadyS = restarted.readyS;
    await askOnce(
      await distinctQueries(pool, { seed: seed + 1, count }),
      [apiPort],
      restarted.token,
      `Distinct queries after a restart (first minute included), seed ${seed + 1}`,
      restarted.children.map((c) => c.pid!),
    );
    // BENCH_ROUNDS=…,again: a second seed's distinct queries on the same process (past its first minute).
    if (rounds.has('again'))
      await askOnce(
        await distinctQueries(pool, { seed: seed + 3, count }),
        [apiPort],
        restarted.token,
        `Distinct queries on the same restarted process again, seed ${seed + 3}`,
        restarted.children.map((c) => c.pid!),
      );
    restartedPeakMb = peakRssMb(restarted.children[0].pid!);
    console.log(
      `  peak RSS of the API process after the distinct queries: ${restartedPeakMb.toFixed(0)} MB, now ${rssMb(restarted.children[0].pid!).toFixed(0)} MB`,
    );
    await stopApi(restarted.children[0]);
  }
  if (rounds.has('two')) {
    const two = await startReady([apiPort, apiPort + 1], 'Two API processes');
    await askOnce(
      await distinctQueries(pool, { seed: seed + 2, count }),
      [apiPort, apiPort + 1],
      two.token,
      `Distinct queries on two API processes (clients alternate), seed ${seed + 2}`,
      two.children.map((c) => c.pid!),
    );
    for (const child of two.children) await stopApi(child);
  }
  if (fresh) printScaleRow({ buildS, restartedReadyS, freshPeakMb, restartedPeakMb, fresh, freshLoad });
}

/** One row of the scale table (docs/performance.md: 1M / 2M / 5M); the import rate comes from bench:import. */
function printScaleRow(r: {
  buildS: number;
  restartedReadyS: number;
  freshPeakMb: number;
  restartedPeakMb: number;
  fresh: ReturnType<typeof stats>;
  freshLoad: string;
}) {
  console.log(
    '\nScale row | products | index build s | restart: first search answered after s | API peak RSS MB (fresh / restarted) | first occurrence p50 / p95 / p99 ms | req/s | load',
  );
  console.log(
    `Scale row | ${products.toLocaleString('de-DE')} | ${r.buildS.toFixed(1)} | ${r.restartedReadyS.toFixed(1)} | ${r.freshPeakMb.toFixed(0)} / ${r.restartedPeakMb.toFixed(0)} | ${r.fresh.p50.toFixed(0)} / ${r.fresh.p95.toFixed(0)} / ${r.fresh.p99.toFixed(0)} | ${r.fresh.rps.toFixed(0)} | ${r.freshLoad} |`,
  );
}

/** The 1-minute load average (the machine is shared: every figure is printed with it). */
function loadAverage() {
  return os.loadavg()[0].toFixed(1);
}

/** Typo recall: products sampled evenly over the catalogue, the intended product on page one for the typo of its own words. */
async function typoRecall(seed: number, token: string) {
  // Typo recall: products sampled evenly over the catalogue.
  const { rows: sample } = await pool.query<{ productId: string; name: string; series: string | null }>(
    `SELECT product_id AS "productId", product_name AS name, series FROM products
      WHERE id % GREATEST(1, (SELECT count(*) FROM products) / 20000) = 0 ORDER BY id LIMIT 20000`,
  );
  const cases = typoCases(sample, { seed, size: Number(process.env.BENCH_TYPO_CASES ?? 200) });
  const results: { c: (typeof cases)[number]; found: boolean }[] = [];
  const pageOne = async (searchTerm: string) =>
    (await searchOn(apiPort, token, { searchTerm, page: 1, pageSize: 25 }, true)).body!.hits.map((h) => h.productId);
  for (const c of cases) {
    if (!(await pageOne(c.exact)).includes(c.productId)) continue; // the exact words must find it on page one
    results.push({ c, found: (await pageOne(c.typo)).includes(c.productId) });
  }
  console.log('\nTypo recall (intended product on page one; long = word of ≥ 5 letters, short = 4 letters)');
  console.log('  | words, edit | cases | found | recall |\n  |---|---|---|---|');
  for (const r of recallTable(results))
    console.log(`  | ${r.key} | ${r.cases} | ${r.found} | ${(r.recall * 100).toFixed(1)} % |`);
}

console.log(
  `\nbench:search — ${products.toLocaleString('de-DE')} products, ${mix.length} queries in the mix, ${clients} clients`,
);
if (process.env.BENCH_DISTINCT_ONLY) {
  await distinctPhase();
  await Promise.all([...clientsByPort.values()].map((c) => c.close()));
  await pool.end();
  await server.stop();
  process.exit(0);
}
const api = await apiPhase('API over HTTP (facet cache on)');
const uncached = process.env.BENCH_UNCACHED
  ? await apiPhase('API over HTTP, SEARCH_CACHE=off', { SEARCH_CACHE: 'off' })
  : null;

// Raw SQL: the engine's statements on a plain pool, no HTTP and no cache.
const rawPool = new pg.Pool({
  connectionString: databaseUrl,
  max: clients,
  options: '-c max_parallel_workers_per_gather=0 -c jit=off',
});
rawPool.on('error', () => {});
const meta = new CatalogueMetaCache(() => rawPool);
const engine = new SearchEngine(() => rawPool, meta, { cache: false });
const raw = await run(async (q) => {
  await engine.search({ userId: BUYER.userId, bpNumber: BUYER.bpNumber, prices: listPriceStrategy }, q.body);
  return true;
}, seconds);
console.log(`\nRaw SQL (same statements, pg pool, no cache)\n  ${clients} clients, ${seconds} s: ${fmt(raw)}`);
console.log(
  `  p95 by kind: ${Object.entries(raw.byKind)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join(', ')}`,
);
console.log(
  `\nAPI/raw ratio: p50 ${(api.warm.p50 / raw.p50).toFixed(2)}, p95 ${(api.warm.p95 / raw.p95).toFixed(2)}, throughput ${(api.warm.rps / raw.rps).toFixed(2)}`,
);
if (uncached)
  console.log(
    `API uncached/raw ratio: p50 ${(uncached.warm.p50 / raw.p50).toFixed(2)}, p95 ${(uncached.warm.p95 / raw.p95).toFixed(2)}`,
  );

await distinctPhase();
await Promise.all([...clientsByPort.values()].map((c) => c.close()));
await rawPool.end();
await pool.end();
await server.stop();
