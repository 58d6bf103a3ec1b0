/**
 * npm run bench:dashboard — p95 of every dashboard call at 1,000,000 supplier orders, for 'all' and for
 * one supplier, over the full range (by month) and over one month (by day), with 8 concurrent clients
 * against the real HTTP API on a fresh embedded Postgres. Then checks that the figures are exact after
 * a new order and a confirmation (API vs a direct count on supplier_orders).
 *
 *   BENCH_ORDERS (default 1,000,000), BENCH_REQUESTS per scenario (default 160), BENCH_CLIENTS (default 8)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadOrderHistory } from '../src/seed/orders/history.ts';
import { startBenchApi } from './bench-support.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 160);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);

const api = await startBenchApi('dashboard');
const { config, pool } = api;
try {
  let t0 = performance.now();
  await loadOrderHistory(pool, { orders: ORDERS, seed: 11, avgLines: 0, log: (m) => console.log(`  ${m}`) });
  console.log(
    `seed: ${ORDERS.toLocaleString('de-DE')} supplier orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const rollupRows = (await pool.query('SELECT count(*)::int AS n FROM supplier_order_daily')).rows[0].n;
  console.log(`rollup rows: ${rollupRows.toLocaleString('de-DE')}`);

  await api.listen();
  const token = await api.login('admin@example.com');
  const supplier = (await pool.query('SELECT bp_number FROM suppliers ORDER BY bp_number LIMIT 1')).rows[0].bp_number;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonthStart = new Date(`${monthStart}T00:00:00Z`);
  lastMonthStart.setUTCMonth(lastMonthStart.getUTCMonth() - 1);
  const lastMonthEnd = new Date(`${monthStart}T00:00:00Z`);
  lastMonthEnd.setUTCDate(0);
  const ranges = {
    full: { StartDate: '2024-01-01', EndDate: today, Grouping: 'month' },
    month: {
      StartDate: lastMonthStart.toISOString().slice(0, 10),
      EndDate: lastMonthEnd.toISOString().slice(0, 10),
      Grouping: 'day',
    },
  };
  const call = async (p: string, q: Record<string, string>) => {
    const res = await fetch(`${config.publicUrl}/v1/Dashboard/${p}?${new URLSearchParams(q)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

  console.log(`\n${CLIENTS} concurrent clients, ${REQUESTS} requests per scenario (ms)`);
  console.log('call'.padEnd(44) + 'range'.padEnd(8) + 'p50'.padStart(8) + 'p95'.padStart(8) + 'max'.padStart(8));
  const figures = [
    'SupplierOrdersCount',
    'SupplierOrdersSla',
    'SupplierOrdersSumNetValue',
    'SupplierOrdersAvgNetValue',
  ];
  const worst: number[] = [];
  for (const [rangeName, range] of Object.entries(ranges)) {
    for (const bySeller of [false, true]) {
      for (const f of figures) {
        const name = bySeller ? `${f}BySeller` : f;
        const q = bySeller ? { ...range, SupplierBpNumber: supplier } : range;
        await call(name, q); // warm-up
        const times: number[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < REQUESTS) {
              next++;
              const s = performance.now();
              await call(name, q);
              times.push(performance.now() - s);
            }
          }),
        );
        times.sort((a, b) => a - b);
        worst.push(p(times, 0.95));
        console.log(
          name.padEnd(44) +
            rangeName.padEnd(8) +
            [p(times, 0.5), p(times, 0.95), times[times.length - 1]].map((v) => v.toFixed(1).padStart(8)).join(''),
        );
      }
    }
  }
  console.log(`worst p95: ${Math.max(...worst).toFixed(1)} ms`);

  // Exactness after a new order and a confirmation.
  const exact = async () => {
    const api = await call('SupplierOrdersCount', ranges.full);
    const sla = await call('SupplierOrdersSla', ranges.full);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n,
              round(100.0 * count(*) FILTER (WHERE status_id IN (4,5) AND confirmed_at - COALESCE(sent_at, placed_at) <= interval '48 hours')
                    / NULLIF(count(*) FILTER (WHERE sent_at IS NOT NULL OR status_id IN (4,5)), 0), 2)::float8 AS sla
         FROM supplier_orders WHERE NOT is_test AND placed_at >= '2024-01-01'::timestamp AT TIME ZONE 'Europe/Berlin'`,
    );
    return { api: [api.total, sla.total], direct: [rows[0].n, rows[0].sla] };
  };
  t0 = performance.now();
  const before = await exact();
  await pool.query(
    `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id, net_value, delivery_cost, sent_at)
     SELECT 'BENCH-NEW', customer_order_id, supplier_bp_number, buyer_bp_number, 2, 100, 0, now() FROM supplier_orders LIMIT 1`,
  );
  await pool.query(
    `UPDATE supplier_orders SET status_id = 4, confirmed_at = now() + interval '1 hour' WHERE supplier_order_number = 'BENCH-NEW'`,
  );
  const after = await exact();
  console.log(`exactness: before ${JSON.stringify(before)}, after new order + confirmation ${JSON.stringify(after)}`);
  if (after.api[0] !== after.direct[0] || after.api[1] !== after.direct[1]) throw new Error('dashboard is not exact');
  console.log(`load (uptime): ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
} finally {
  await api.close();
}
