/**
 * npm run bench:carts — the cart overview `GET /v1/MultiCarts` under load: BENCH_USERS (50) concurrent users
 * over HTTP with real tokens, each partner holding BENCH_CARTS (10) carts of BENCH_ITEMS (50) items, for
 * BENCH_SECONDS (30). Target: p95 ≤ 50 ms, 0 errors, and every cart's totals in the overview equal to the
 * cart detail's (`GET /v1/MultiCarts/{id}`).
 *
 *   BENCH_USERS (50), BENCH_ACCOUNTS (10; users share them, 30 sign-ins per address and 10 minutes),
 *   BENCH_CARTS (10), BENCH_ITEMS (50), BENCH_SECONDS (30), BENCH_PRODUCTS (catalogue size, 5 000)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { hashPassword } from '../src/modules/identity/password.ts';
import { startBenchApi } from './bench-support.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const CARTS = Number(process.env.BENCH_CARTS ?? 10);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 5000);

const loadBefore = os.loadavg();
const api = await startBenchApi('carts', { products: PRODUCTS });
const { config, runtime } = api;
const { pool } = runtime;

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
const accounts: { email: string; bp: string; token: string }[] = [];
for (let a = 0; a < ACCOUNTS; a++) {
  const bp = `1810${String(a).padStart(2, '0')}`;
  const email = `korb${a}@example.com`;
  const user = `00000000-0000-4000-9200-0000000000${String(a).padStart(2, '0')}`;
  await pool.query(
    `INSERT INTO business_partners (bp_number, name, street, house_number, postal_code, city, country)
     VALUES ($1, $2, 'Korbweg', '1', '10115', 'Berlin', 'DE')`,
    [bp, `Korb Käufer ${a}`],
  );
  await pool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
     VALUES ($1, $2, 'Korb', $3, 1, $4, $5)`,
    [user, email, String(a), hash, bp],
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
  accounts.push({ email, bp, token: '' });
}
await api.listen();
for (const account of accounts) account.token = await api.login(account.email);

async function get(token: string, url: string) {
  const res = await fetch(`${config.publicUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

// Correctness first: the overview's totals are the detail's totals, for every cart of every account.
let mismatches = 0;
for (const account of accounts) {
  const list: { id: number; itemCount: number; totalNetValue: number }[] = await get(account.token, '/v1/MultiCarts');
  if (list.length !== CARTS) throw new Error(`expected ${CARTS} carts, got ${list.length}`);
  for (const cart of list) {
    const detail = await get(account.token, `/v1/MultiCarts/${cart.id}`);
    const itemCount = detail.supplierGroups.reduce((n: number, g: { itemCount: number }) => n + g.itemCount, 0);
    if (cart.totalNetValue !== detail.totalNetValue || cart.itemCount !== itemCount) {
      mismatches++;
      console.error('mismatch', cart, { totalNetValue: detail.totalNetValue, itemCount });
    }
  }
}

const latencies: number[] = [];
const errors: string[] = [];
const started = performance.now();
const deadline = started + SECONDS * 1000;
await Promise.all(
  Array.from({ length: USERS }, async (_, n) => {
    const account = accounts[n % ACCOUNTS];
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await get(account.token, '/v1/MultiCarts');
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
  }),
);
const wallSeconds = (performance.now() - started) / 1000;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1) : 0;
};
const report = {
  users: USERS,
  accounts: ACCOUNTS,
  cartsPerAccount: CARTS,
  itemsPerCart: ITEMS,
  seconds: SECONDS,
  requests: latencies.length,
  requestsPerSecond: +(latencies.length / wallSeconds).toFixed(1),
  errors: errors.length,
  firstErrors: errors.slice(0, 3),
  medianMs: pct(latencies, 50),
  p95Ms: pct(latencies, 95),
  p99Ms: pct(latencies, 99),
  maxMs: pct(latencies, 100),
  totalsMismatches: mismatches,
  loadAverageBefore: loadBefore.map((v) => +v.toFixed(2)),
  loadAverageAfter: os.loadavg().map((v) => +v.toFixed(2)),
  cpus: os.cpus().length,
};
console.log(JSON.stringify(report, null, 2));
const ok = report.errors === 0 && mismatches === 0 && report.p95Ms <= 50;
console.log(ok ? 'Ziel erreicht.' : 'Ziel verfehlt.');
await api.close();
process.exit(ok ? 0 : 1);
