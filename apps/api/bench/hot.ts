/**
 * npm run bench:hot — the buyer's hot read paths under load (the hot paths besides search), closed loop (no think
 * time), BENCH_USERS (50) concurrent users with real tokens against the API in its own process:
 *
 *   carts    GET /v1/MultiCarts, each partner holding BENCH_CARTS (10) carts of BENCH_ITEMS (50) lines;
 *   product  the product page: GET /v1/Product/ByManufacturerData, then GET /v1/Product/Details of the chosen offer
 *            (the page asks them one after the other), with GET /v1/Units and the NoteOfUseAllowedSuppliers value
 *            beside them; every user walks through distinct products (BENCH_PRODUCTS_PER_ACCOUNT per partner);
 *   home     the buyer's start page: UserProfile, MultiCarts (header badge), the promotion-slide setting, the
 *            kitchen-configurator slide, the approved suppliers, the suppliers without relation and the product
 *            tree, all at once as the browser asks them.
 *
 * Each phase runs BENCH_SECONDS (20) and reports per page (all its calls done) and per call: requests/s, p50, p95,
 * p99, max, errors. Correctness: before and after the load every cart's totals in the overview equal the cart
 * detail's (priced again from the lines, through the price strategy) and another partner's cart is a 404; under load every
 * product and home answer is compared byte for byte with the answer the same partner got alone before the load
 * (a cache that served another partner's or stale data would show up as a mismatch).
 *
 * Env: BENCH_DATA_DIR (/tmp/shk-bench-hot; the database is reused while BENCH_PRODUCTS and the cart shape match),
 * BENCH_PG_PORT (55430), BENCH_API_PORT (3430), BENCH_USERS (50), BENCH_ACCOUNTS (10), BENCH_CARTS (10),
 * BENCH_ITEMS (50), BENCH_SECONDS (20), BENCH_PRODUCTS (catalogue size, 5 000), BENCH_PRODUCTS_PER_ACCOUNT (40),
 * BENCH_PHASES ('carts,product,home'), BENCH_SEED_ONLY=1 (build the database and stop), BENCH_PG_STATS=1
 * (pg_stat_statements: statements per call and the costliest statements of the run), BENCH_API=tsx, BENCH_CPU_PROF=1 (the API writes a V8 CPU profile to
 * BENCH_DATA_DIR/profiles when it stops), BENCH_API_NODE_OPTIONS (extra node flags for the API process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { FeatureSettingKey, limits } from '@shk/contracts';
import { openBenchDatabase, processCpuMs, startApiProcess, stopApiProcess } from './bench-support.ts';
import { seedDemoCatalogueIfEmpty } from '../src/seed/catalogue/demo.ts';
import { hashPassword } from '../src/modules/identity/password.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';
import { benchClient } from './http-client.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const CARTS = Number(process.env.BENCH_CARTS ?? 10);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 5000);
const PER_ACCOUNT = Number(process.env.BENCH_PRODUCTS_PER_ACCOUNT ?? 40);
const PHASES = (process.env.BENCH_PHASES ?? 'carts,product,home')
  .split(',')
  .map((p) => p.trim())
  .filter((p) => ['carts', 'product', 'home'].includes(p));
const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-hot';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55430);
const apiPort = Number(process.env.BENCH_API_PORT ?? 3430);
const cpuProfile = process.env.BENCH_CPU_PROF === '1';
const pgStats = process.env.BENCH_PG_STATS === '1';
const apiUrl = `http://127.0.0.1:${apiPort}`;

// ——— database (reused when its shape matches) ———
const shape = JSON.stringify({ PRODUCTS, ACCOUNTS, CARTS, ITEMS, v: 1 });
const marker = path.join(dataDir, 'shape.json');
const { server, databaseUrl, pool, db } = await openBenchDatabase(dataDir, {
  pgPort,
  pgStats,
  keepIf: { file: marker, content: shape },
});
let api: ChildProcess | undefined;
let closeClient: (() => Promise<void>) | undefined;

interface Account {
  email: string;
  bp: string;
  token: string;
  products: { manufacturerId: string; manufacturerPid: string; productInstanceId: string }[];
}

async function seed(): Promise<void> {
  await seedDemoCatalogueIfEmpty(db, () => {}, PRODUCTS);
  // Offers of every kind a real cart holds: mostly orderable, some of a supplier without relation (not counted).
  const offers = (
    await pool.query<{ id: string; supplier: string; pid: string; moq: number }>(
      `SELECT product_instance_id AS id, supplier_bp_number AS supplier, supplier_pid AS pid,
              greatest(coalesce(min_order_quantity, 1), 1)::int AS moq
         FROM product_offers ORDER BY product_instance_id LIMIT $1`,
      [CARTS * ITEMS * 2],
    )
  ).rows;
  const suppliers = [...new Set(offers.map((o) => o.supplier))];
  const hash = await hashPassword('demo');
  for (let a = 0; a < ACCOUNTS; a++) {
    const bp = `1810${String(a).padStart(2, '0')}`;
    const user = `00000000-0000-4000-9200-0000000000${String(a).padStart(2, '0')}`;
    await pool.query(
      `INSERT INTO business_partners (bp_number, name, street, house_number, postal_code, city, country)
       VALUES ($1, $2, 'Korbweg', '1', '10115', 'Berlin', 'DE')`,
      [bp, `Korb Käufer ${a}`],
    );
    await pool.query(
      `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
       VALUES ($1, $2, 'Korb', $3, 1, $4, $5)`,
      [user, `korb${a}@example.com`, String(a), hash, bp],
    );
    await pool.query('INSERT INTO user_business_partners VALUES ($1, $2)', [user, bp]);
    // Approved at all suppliers but the last: its items are in the carts but not orderable.
    await pool.query(
      `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number)
       SELECT s, $1, 1, 'K-' || $1 FROM unnest($2::text[]) s`,
      [bp, suppliers.slice(0, Math.max(1, suppliers.length - 1))],
    );
    for (let c = 0; c < CARTS; c++) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO carts (bp_number, name, is_default, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
        [bp, `Korb ${c + 1}`, c === 0, user],
      );
      const chosen = Array.from({ length: ITEMS }, (_, i) => offers[(a * 7 + c * ITEMS + i) % offers.length]);
      await pool.query(
        `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
         SELECT $1, id, supplier, pid, qty FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[]) AS t(id, supplier, pid, qty)
         ON CONFLICT DO NOTHING`,
        [
          rows[0].id,
          chosen.map((o) => o.id),
          chosen.map((o) => o.supplier),
          chosen.map((o) => o.pid),
          chosen.map((o, i) => o.moq * (1 + (i % 3))),
        ],
      );
    }
  }
  await pool.query('ANALYZE');
  fs.writeFileSync(marker, shape);
}

type Phase = 'carts' | 'product' | 'home';
interface Sample {
  page: number;
  calls: Record<string, number>;
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1) : 0;
}

// One early way out of the run (BENCH_SEED_ONLY) that still stops Postgres.
run: try {
  if (!fs.existsSync(marker)) {
    const t0 = performance.now();
    await seed();
    console.log(
      `seed: ${PRODUCTS} products, ${ACCOUNTS} partners × ${CARTS} carts × ${ITEMS} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } else console.log(`seed: reusing ${dataDir}`);
  if (process.env.BENCH_SEED_ONLY === '1') break run;

  // Distinct products per partner, each with one of its offers (the product page's id and articleNumber).
  const productRows = (
    await pool.query<{ manufacturer_id: string; manufacturer_pid: string; product_instance_id: string }>(
      `SELECT DISTINCT ON (p.id) p.manufacturer_id, p.manufacturer_pid, o.product_instance_id
         FROM products p JOIN product_offers o ON o.product_no = p.id
        ORDER BY p.id, o.product_instance_id LIMIT $1`,
      [ACCOUNTS * PER_ACCOUNT],
    )
  ).rows;
  const accounts: Account[] = Array.from({ length: ACCOUNTS }, (_, a) => ({
    email: `korb${a}@example.com`,
    bp: `1810${String(a).padStart(2, '0')}`,
    token: '',
    products: productRows
      .filter((_, i) => i % ACCOUNTS === a)
      .map((r) => ({
        manufacturerId: r.manufacturer_id,
        manufacturerPid: r.manufacturer_pid,
        productInstanceId: r.product_instance_id,
      })),
  }));

  // ——— the API as its own process ———
  api = await startApiProcess({
    port: apiPort,
    nodeArgs: [
      ...(process.env.BENCH_API_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
      ...(cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(dataDir, 'profiles')}`] : []),
    ],
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: apiUrl, DATA_DIR: dataDir },
  });
  for (const account of accounts) account.token = (await loginWithCodeFlow(apiUrl, account.email)).access_token;

  // undici's Pool (bench/http-client.ts): the same requests as fetch for less of the generator's CPU.
  const client = benchClient(apiUrl);
  closeClient = () => client.close();
  async function getText(token: string, url: string): Promise<string> {
    const res = await client.send('GET', url, { token });
    const text = res.text;
    if (res.status !== 200) throw new Error(`${url} ${res.status} ${text.slice(0, 200)}`);
    return text;
  }
  const get = async (token: string, url: string) => JSON.parse(await getText(token, url));

  // ——— correctness of the overview: detail (priced again) and an independent SQL sum ———
  async function checkCarts(): Promise<number> {
    let mismatches = 0;
    for (const account of accounts) {
      const list: { id: number; itemCount: number; totalNetValue: number }[] = await get(
        account.token,
        '/v1/MultiCarts',
      );
      if (list.length !== CARTS) throw new Error(`expected ${CARTS} carts, got ${list.length}`);
      for (const cart of list) {
        const detail = await get(account.token, `/v1/MultiCarts/${cart.id}`);
        const groups: { itemCount: number }[] = detail.supplierGroups;
        const itemCount = groups.reduce((n, g) => n + g.itemCount, 0);
        if (cart.totalNetValue !== detail.totalNetValue || cart.itemCount !== itemCount) {
          mismatches++;
          console.error('mismatch', cart, { totalNetValue: detail.totalNetValue, itemCount });
        }
      }
      // Another partner's cart is a 404 for this one.
      const other = accounts[(accounts.indexOf(account) + 1) % accounts.length];
      if (other !== account) {
        const foreign: { id: number }[] = await get(other.token, '/v1/MultiCarts');
        const res = await client.send('GET', `/v1/MultiCarts/${foreign[0].id}`, { token: account.token });
        if (res.status !== 404) {
          mismatches++;
          console.error(`foreign cart ${foreign[0].id} answered ${res.status} for ${account.bp}`);
        }
      }
    }
    return mismatches;
  }

  // ——— the pages ———
  const productPage = (account: Account, i: number) => {
    const p = account.products[i % account.products.length];
    const q = new URLSearchParams({
      manufacturerId: p.manufacturerId,
      manufacturerPid: p.manufacturerPid,
      productInstanceId: p.productInstanceId,
    });
    return {
      chain: [
        `/v1/Product/ByManufacturerData?${q}`,
        `/v1/Product/Details?${new URLSearchParams({ productInstanceId: p.productInstanceId })}`,
      ],
      beside: ['/v1/Units', `/v1/ConfigurationValues/${FeatureSettingKey.NoteOfUseAllowedSuppliers}`],
    };
  };
  const homeCalls = [
    '/v1/UserProfile',
    '/v1/MultiCarts',
    `/v1/ConfigurationValues/${FeatureSettingKey.NonProductPromotionSlide}`,
    '/v1/KitchenConfigurator/Slide',
    `/v1/SupplierCustomers?RelationStatusIds=1&PageSize=${limits.platformOperatorRelationPageSize}&Page=1`,
    '/v1/SupplierCustomers/SuppliersWithoutRelation',
    '/v1/ProductTree',
  ];
  const callName = (url: string) => url.replace(/\?.*$/, '');

  // References: what each partner gets alone, before the load.
  const reference = new Map<string, string>();
  const refKey = (account: Account, url: string) => `${account.bp} ${url}`;
  for (const account of accounts) {
    for (let i = 0; i < account.products.length; i++) {
      const page = productPage(account, i);
      for (const url of [...page.chain, ...page.beside])
        reference.set(refKey(account, url), await getText(account.token, url));
    }
    for (const url of homeCalls) reference.set(refKey(account, url), await getText(account.token, url));
  }
  let bodyMismatches = 0;
  const firstBodyMismatches: string[] = [];
  async function call(account: Account, url: string, calls: Record<string, number>, check: boolean): Promise<void> {
    const t0 = performance.now();
    const text = await getText(account.token, url);
    calls[callName(url)] = performance.now() - t0;
    if (check && text !== reference.get(refKey(account, url))) {
      bodyMismatches++;
      if (firstBodyMismatches.length < 3) firstBodyMismatches.push(`${account.bp} ${url}: ${text.slice(0, 160)}`);
    }
  }

  async function runPhase(phase: Phase) {
    const samples: Sample[] = [];
    const errors: string[] = [];
    const loadBefore = os.loadavg();
    const cpuBefore = process.cpuUsage();
    const apiCpuBefore = processCpuMs(api!.pid!);
    const started = performance.now();
    const end = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: USERS }, async (_, n) => {
        const account = accounts[n % ACCOUNTS];
        // Users of one partner start at different products and walk on: distinct products, not one repeated.
        let i = Math.floor(n / ACCOUNTS) * 7;
        while (performance.now() < end) {
          const calls: Record<string, number> = {};
          const t0 = performance.now();
          try {
            if (phase === 'carts') await call(account, '/v1/MultiCarts', calls, false);
            else if (phase === 'product') {
              const page = productPage(account, i++);
              await Promise.all([
                (async () => {
                  for (const url of page.chain) await call(account, url, calls, true);
                })(),
                ...page.beside.map((url) => call(account, url, calls, true)),
              ]);
            } else {
              // The overview's body changes with nothing here, but its totals are checked separately.
              await Promise.all(homeCalls.map((url) => call(account, url, calls, url !== '/v1/MultiCarts')));
            }
            samples.push({ page: performance.now() - t0, calls });
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuRun = process.cpuUsage(cpuBefore);
    const apiCpuRun = processCpuMs(api!.pid!) - apiCpuBefore;
    const requests = samples.reduce((n, s) => n + Object.keys(s.calls).length, 0);
    const pages = samples.map((s) => s.page);
    const names = [...new Set(samples.flatMap((s) => Object.keys(s.calls)))];
    return {
      phase,
      users: USERS,
      seconds: SECONDS,
      pages: pages.length,
      pagesPerSecond: +(pages.length / wallSeconds).toFixed(1),
      requestsPerSecond: +(requests / wallSeconds).toFixed(1),
      // CPU per request (call) of the API process and of this load generator during the phase.
      cpuMsPerRequest: {
        api: +(apiCpuRun / requests).toFixed(2),
        loadGenerator: +((cpuRun.user + cpuRun.system) / 1000 / requests).toFixed(2),
      },
      errors: errors.length,
      firstErrors: errors.slice(0, 3),
      page: { p50: pct(pages, 50), p95: pct(pages, 95), p99: pct(pages, 99), max: pct(pages, 100) },
      calls: Object.fromEntries(
        names.map((name) => {
          const v = samples.map((s) => s.calls[name]).filter((x) => x !== undefined);
          return [name, { p50: pct(v, 50), p95: pct(v, 95), p99: pct(v, 99) }];
        }),
      ),
      loadAverageBefore: loadBefore.map((v) => +v.toFixed(2)),
      loadAverageAfter: os.loadavg().map((v) => +v.toFixed(2)),
    };
  }

  // Statements per call (pg_stat_statements, one client, 10 calls each) before the load.
  const statementsPerCall: Record<string, number> = {};
  if (pgStats) {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const account = accounts[0];
    const urls = [...new Set([...productPage(account, 0).chain, ...productPage(account, 0).beside, ...homeCalls])];
    for (const url of urls) {
      await pool.query('SELECT pg_stat_statements_reset()');
      for (let i = 0; i < 10; i++) await getText(account.token, url);
      const { rows } = await pool.query<{ n: string }>(
        `SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements
          WHERE query NOT ILIKE '%pg_stat_statements%' AND query NOT IN ('BEGIN', 'COMMIT')`,
      );
      statementsPerCall[callName(url)] = Number(rows[0].n) / 10;
    }
    console.log('statements per call:', JSON.stringify(statementsPerCall));
    await pool.query('SELECT pg_stat_statements_reset()');
  }

  let totalsMismatches = await checkCarts();
  const results = [];
  for (const phase of PHASES as Phase[]) {
    // A short warm-up per phase (the first calls of a process compile code and fill the statement caches).
    const warm = performance.now() + 2000;
    while (performance.now() < warm)
      await Promise.all(
        accounts.map((a) =>
          phase === 'carts'
            ? getText(a.token, '/v1/MultiCarts')
            : phase === 'product'
              ? getText(a.token, productPage(a, 0).chain[0])
              : getText(a.token, homeCalls[6]),
        ),
      );
    const result = await runPhase(phase);
    results.push(result);
    console.log(JSON.stringify(result));
  }
  if (pgStats) {
    const { rows } = await pool.query(
      `SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 15`,
    );
    console.table(rows);
  }
  totalsMismatches += await checkCarts();
  const summary = {
    cpus: os.cpus().length,
    uptime: fs.readFileSync('/proc/loadavg', 'utf8').trim(),
    totalsMismatches,
    bodyMismatches,
    firstBodyMismatches,
    pageP95Ms: Object.fromEntries(results.map((r) => [r.phase, r.page.p95])),
  };
  console.log(JSON.stringify(summary, null, 2));
  const ok =
    results.length > 0 &&
    totalsMismatches === 0 &&
    bodyMismatches === 0 &&
    results.every((r) => r.errors === 0 && r.page.p95 <= 50);
  console.log(ok ? 'Ziel erreicht.' : 'Ziel verfehlt.');
  process.exitCode = ok ? 0 : 1;
} finally {
  await closeClient?.();
  if (api) await stopApiProcess(api);
  await pool.end();
  await server.stop();
}
