/**
 * npm run bench:load — 60 s of a mixed buyer workload at 50 concurrent users against the real HTTP
 * API on a fresh embedded Postgres with the demo world and catalogue: search, product detail, add to
 * cart, checkout (every 4th round) and the order list. Target: 0 errors, p95 ≤ 300 ms overall,
 * orders created = orders reported by the API.
 *
 *   BENCH_USERS (50), BENCH_SECONDS (60), BENCH_PRODUCTS (catalogue size, 20 000),
 *   BENCH_WORKER (inline): the order-transmission worker inside the API, as `npm start` runs it; `process` runs it
 *   as its own process (`npm run worker`, docs/transmission.md) with TRANSMISSION_WORKER=off in the API — on 2 cores
 *   that was slower (docs/performance.md, 2026-11-25), it pays with more cores.
 *   The API runs as its own process, as `npm start` runs it (compiled: `node apps/api/dist/main.js`, built by
 *   scripts/build-api.mjs when stale; BENCH_API=tsx: from the TypeScript source through tsx), so the load
 *   generator's 50 clients do not share the API's event loop (before 2026-11-25 they did).
 *   BENCH_PG_STATS=1: Postgres restarted with pg_stat_statements; the statements that took the most time during
 *   the run are printed. BENCH_CPU_PROFILE=<dir>: V8 CPU profiles of the API process written there when it stops
 *   (open in Chrome DevTools). Always reported: CPU milliseconds per request of the API process, of the load
 *   generator and of Postgres (all its processes) during the run — steadier than latency on a shared machine.
 *   The generator's requests go through undici's Pool (bench/http-client.ts), not fetch (2.1 ms of CPU per request).
 * BENCH_CLUSTER=1,2: the same kind of load through haproxy in front of one and then two nodes on Debian's PostgreSQL
 * server (bench/load-cluster.ts: requests/s, the scaling ratio, each node's memory).
 * The users share 10 buyer accounts (5 carts each): the login throttle allows 30 sign-ins per
 * address and 10 minutes, and one buyer company with several people ordering is the real case.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { postgresCpuMs, processCpuMs, startApiProcess, startBenchApi, stopApiProcess } from './bench-support.ts';
import { DEMO_CATALOGUE_PRODUCTS } from '../src/seed/catalogue/demo.ts';
import { hashPassword } from '../src/modules/identity/password.ts';
import { benchClient } from './http-client.ts';
import { benchCluster } from './load-cluster.ts';

// BENCH_CLUSTER=1,2: through haproxy in front of one and two nodes (bench/load-cluster.ts) instead of the single API.
if (process.env.BENCH_CLUSTER) {
  await benchCluster();
  process.exit();
}

const USERS = Number(process.env.BENCH_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? DEMO_CATALOGUE_PRODUCTS);
const ACCOUNTS = 10;
const WORKER = process.env.BENCH_WORKER ?? 'inline';
/** BENCH_API=tsx runs the API from TypeScript through tsx instead of compiled (as `npm start` does). */
const viaTsx = process.env.BENCH_API === 'tsx';
const TERMS = ['Thermostat', 'Rohr', 'Ventil', 'Pressfitting', 'Heizkörper', 'Kugelhahn', 'Siphon', 'Pumpe', 'Armatur'];

const loadBefore = os.loadavg();
const bench = await startBenchApi('load', { products: PRODUCTS, pgStats: Boolean(process.env.BENCH_PG_STATS) });
const { config, dir, server, port } = bench;
const seedPool = bench.pool;

// Orderable offers: priced, in a unit the portal knows, from suppliers the bench buyers are approved at.
const offerRows = (
  await seedPool.query<{ id: string; supplier: string; moq: number }>(
    `SELECT product_instance_id AS id, supplier_bp_number AS supplier, greatest(coalesce(min_order_quantity, 1), 1)::int AS moq
       FROM product_offers o
      WHERE net_price > 0 AND EXISTS (SELECT 1 FROM units u WHERE u.code = o.unit_code)
      ORDER BY product_instance_id LIMIT 2000`,
  )
).rows;
const suppliers = [...new Set(offerRows.map((o) => o.supplier))];
const hash = await hashPassword('demo');
const accounts: { email: string; bp: string; token: string }[] = [];
for (let a = 0; a < ACCOUNTS; a++) {
  const bp = `1800${String(a).padStart(2, '0')}`;
  const email = `last${a}@example.com`;
  const user = `00000000-0000-4000-9100-0000000000${String(a).padStart(2, '0')}`;
  await seedPool.query(
    `INSERT INTO business_partners (bp_number, name, street, house_number, postal_code, city, country)
     VALUES ($1, $2, 'Lastweg', '1', '10115', 'Berlin', 'DE') ON CONFLICT DO NOTHING`,
    [bp, `Last Käufer ${a}`],
  );
  await seedPool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
     VALUES ($1, $2, 'Last', $3, 1, $4, $5) ON CONFLICT DO NOTHING`,
    [user, email, String(a), hash, bp],
  );
  await seedPool.query('INSERT INTO user_business_partners VALUES ($1, $2) ON CONFLICT DO NOTHING', [user, bp]);
  for (const s of suppliers) {
    await seedPool.query(
      `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number)
       VALUES ($1, $2, 1, 'L-' || $2) ON CONFLICT DO NOTHING`,
      [s, bp],
    );
  }
  accounts.push({ email, bp, token: '' });
}
// The runtime above only migrated and seeded; the API under load runs as its own process.
await bench.stopApi();
const pool = new pg.Pool({ connectionString: server.url('bench'), max: 4 });
const api = await startApiProcess({
  port,
  nodeArgs: process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [],
  env: {
    DATABASE_URL: server.url('bench'),
    PUBLIC_URL: config.publicUrl,
    DATA_DIR: dir,
    WEB_DIST_DIR: path.join(dir, 'none'),
    TRANSMISSION_WORKER: WORKER === 'process' ? 'off' : 'on',
  },
});
const worker =
  WORKER === 'process'
    ? await startApiProcess({
        entry: 'worker',
        env: { DATABASE_URL: server.url('bench'), DATA_DIR: dir, TRANSMISSION_WORKER: 'on' },
      })
    : null;
for (const account of accounts) account.token = await bench.login(account.email);

type Kind = 'search' | 'detail' | 'addToCart' | 'checkout' | 'orderList' | 'newCart';
const latencies: Record<Kind, number[]> = {
  search: [],
  detail: [],
  addToCart: [],
  checkout: [],
  orderList: [],
  newCart: [],
};
const errors: string[] = [];
let ordersCreated = 0;

// undici's Pool (bench/http-client.ts): the same requests as fetch for less of the generator's CPU.
const client = benchClient(config.publicUrl);
async function call(kind: Kind, token: string, method: string, url: string, body?: unknown) {
  const t0 = performance.now();
  try {
    const res = await client.send(method, url, { token, body: body ?? undefined });
    const text = res.text;
    latencies[kind].push(performance.now() - t0);
    if (res.status >= 300) {
      errors.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
      return null;
    }
    return text ? JSON.parse(text) : null;
  } catch (error) {
    errors.push(`${kind} ${(error as Error).message}`);
    return null;
  }
}

const random = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

// Every user starts with a cart of its own (set up one by one, not measured: not part of the workload).
const carts: number[] = [];
for (let n = 0; n < USERS; n++) {
  const cart = await call('newCart', accounts[n % ACCOUNTS].token, 'POST', '/v1/MultiCarts', { name: `Last ${n}` });
  carts.push(cart?.id as number);
}
latencies.newCart = [];

async function virtualUser(n: number) {
  const account = accounts[n % ACCOUNTS];
  const cartId = carts[n];
  if (!cartId) return;
  let inCart = new Set<string>();
  for (let round = 1; performance.now() < deadline; round++) {
    await call('search', account.token, 'POST', '/v1/Product/Search', {
      searchTerm: random(TERMS),
      page: 1,
      pageSize: 20,
    });
    const offer = random(offerRows);
    await call('detail', account.token, 'GET', `/v1/Product/Details?productInstanceId=${encodeURIComponent(offer.id)}`);
    if (!inCart.has(offer.id)) {
      const added = await call('addToCart', account.token, 'POST', '/v1/CartItems', {
        cartId,
        productInstanceId: offer.id,
        quantity: offer.moq,
      });
      if (added) inCart.add(offer.id);
    }
    if (round % 4 === 0 && inCart.size) {
      const order = await call('checkout', account.token, 'POST', `/v1/MultiCarts/${cartId}/checkout`);
      if (order?.customerOrderNumber) ordersCreated++;
      inCart = new Set();
      await call('orderList', account.token, 'GET', '/v1/CustomerOrders?Page=1&PageSize=10');
    }
  }
}

if (process.env.BENCH_PG_STATS) {
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await pool.query('SELECT pg_stat_statements_reset()');
}
const cpuBefore = process.cpuUsage();
const apiCpuBefore = processCpuMs(api.pid!);
const pgCpuBefore = postgresCpuMs(path.join(dir, 'pg'));
const started = performance.now();
const deadline = started + SECONDS * 1000;
await Promise.all(Array.from({ length: USERS }, (_, n) => virtualUser(n)));
const wallSeconds = (performance.now() - started) / 1000;
const cpuRun = process.cpuUsage(cpuBefore);
const apiCpuRun = processCpuMs(api.pid!) - apiCpuBefore;
const pgCpuRun = postgresCpuMs(path.join(dir, 'pg')) - pgCpuBefore;
const pgStatements = process.env.BENCH_PG_STATS
  ? (
      await pool.query(
        `SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 2) AS mean_ms, rows,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
           FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25`,
      )
    ).rows
  : undefined;

// Orders reported: what the API lists for each account, and what the database holds.
let ordersReported = 0;
for (const account of accounts) {
  const list = await call('orderList', account.token, 'GET', '/v1/CustomerOrders?Page=1&PageSize=1');
  ordersReported += Number(list?.totalCount ?? 0);
}
const { rows } = await pool.query<{ n: number }>(
  'SELECT count(*)::int AS n FROM customer_orders WHERE bp_number = ANY($1)',
  [accounts.map((a) => a.bp)],
);

// Not part of the verdict: how far the transmission of the orders got during the run (the worker's own pace).
const transmissions = (
  await pool.query<{ state: string; n: number }>(
    `SELECT t.state, count(*)::int AS n FROM supplier_order_transmissions t
       JOIN supplier_orders s ON s.id = t.supplier_order_id JOIN customer_orders c ON c.id = s.customer_order_id
      WHERE c.bp_number = ANY($1) GROUP BY t.state`,
    [accounts.map((a) => a.bp)],
  )
).rows;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1) : 0;
};
const all = Object.values(latencies).flat();
const perKind = Object.fromEntries(
  Object.entries(latencies).map(([kind, values]) => [
    kind,
    { requests: values.length, medianMs: pct(values, 50), p95Ms: pct(values, 95), maxMs: pct(values, 100) },
  ]),
);
const report = {
  users: USERS,
  seconds: SECONDS,
  catalogueProducts: PRODUCTS,
  requests: all.length,
  requestsPerSecond: +(all.length / wallSeconds).toFixed(1),
  errors: errors.length,
  firstErrors: errors.slice(0, 5),
  overall: { medianMs: pct(all, 50), p95Ms: pct(all, 95), p99Ms: pct(all, 99), maxMs: pct(all, 100) },
  perKind,
  ordersCreated,
  ordersReported,
  ordersInDatabase: rows[0].n,
  transmissionWorker: WORKER,
  api: viaTsx ? 'tsx' : 'compiled',
  supplierOrderTransmissions: Object.fromEntries(transmissions.map((r) => [r.state, r.n])),
  loadAverageBefore: loadBefore.map((v) => +v.toFixed(2)),
  loadAverageAfter: os.loadavg().map((v) => +v.toFixed(2)),
  cpus: os.cpus().length,
  cpuMsPerRequest: {
    api: +(apiCpuRun / all.length).toFixed(2),
    loadGenerator: +((cpuRun.user + cpuRun.system) / 1000 / all.length).toFixed(2),
    postgres: +(pgCpuRun / all.length).toFixed(2),
  },
  pgStatements,
};
console.log(JSON.stringify(report, null, 2));
const ok = report.errors === 0 && report.overall.p95Ms <= 300 && ordersCreated === ordersReported;
console.log(ok ? 'Ziel erreicht.' : 'Ziel verfehlt.');
if (worker) await stopApiProcess(worker);
await stopApiProcess(api);
await client.close();
await pool.end();
await bench.close();
process.exit(ok ? 0 : 1);
