/**
 * npm run bench:dashboard-plans — the database side of each dashboard call, without HTTP or concurrency:
 * runs the exact statements of dashboard.repo.ts under EXPLAIN (ANALYZE, BUFFERS) on the database of
 * DATA_DIR (or DATABASE_URL), e.g. after `DATA_DIR=/tmp/x npm run seed -- --orders 1000000`, and prints
 * each plan and its execution time (the best of PLANS_RUNS runs, default 5). Single statements on an
 * otherwise idle database: cheap enough for a shared machine, unlike bench:dashboard.
 */
import type pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/bootstrap.ts';
import { createPool } from '../src/db/pool.ts';
import { readRollup, readTopSuppliers } from '../src/modules/dashboard/dashboard.repo.ts';
import { previousRange } from '../src/modules/dashboard/periods.ts';

const RUNS = Number(process.env.PLANS_RUNS ?? 5);
const VERBOSE = process.env.PLANS_VERBOSE !== '0';

const config = loadConfig();
const database = await openDatabase(config);
const pool = createPool(database.url, 2);

/** A client that answers every statement with its plan (and records it) instead of rows. */
function explaining(client: pg.PoolClient, sink: string[]) {
  return {
    query: async (text: string, params: unknown[]) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
      sink.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
      return { rows: [], rowCount: 0 };
    },
  } as unknown as pg.PoolClient;
}

try {
  const client = await pool.connect();
  // as the API runs them (dashboard/cancellable.ts)
  await client.query('SET max_parallel_workers_per_gather = 0');
  const { rows: size } = await client.query(
    `SELECT (SELECT count(*) FROM supplier_orders)::int AS orders,
            (SELECT count(*) FROM supplier_order_daily)::int AS daily,
            (SELECT count(*) FROM pg_class WHERE relname = 'supplier_order_monthly') AS has_monthly`,
  );
  const monthly = Number(size[0].has_monthly) > 0;
  const monthlyRows = monthly
    ? (await client.query('SELECT count(*)::int AS n FROM supplier_order_monthly')).rows[0].n
    : 0;
  console.log(`supplier orders: ${size[0].orders}, daily rollup rows: ${size[0].daily}, monthly rows: ${monthlyRows}`);
  const { rows: sup } = await client.query('SELECT bp_number FROM suppliers ORDER BY bp_number LIMIT 1');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const monthStart = `${today.slice(0, 7)}-01`;
  const last = new Date(`${monthStart}T00:00:00Z`);
  last.setUTCMonth(last.getUTCMonth() - 1);
  const lastEnd = new Date(`${monthStart}T00:00:00Z`);
  lastEnd.setUTCDate(0);
  const ranges = {
    full: { start: '2024-01-01', end: today, grouping: 'month' as const },
    month: {
      start: last.toISOString().slice(0, 10),
      end: lastEnd.toISOString().slice(0, 10),
      grouping: 'day' as const,
    },
  };
  for (const [name, r] of Object.entries(ranges))
    for (const supplierBpNumber of [undefined, sup[0].bp_number as string]) {
      const times: number[] = [];
      let plan = '';
      for (let i = 0; i < RUNS; i++) {
        const sink: string[] = [];
        await readRollup(explaining(client, sink), {
          ...r,
          previousStart: previousRange(r.start, r.end).start,
          supplierBpNumber,
        });
        plan = sink.join('\n');
        times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN));
      }
      console.log(
        `\n== ${name} ${supplierBpNumber ? `supplier ${supplierBpNumber}` : 'all'}: best ${Math.min(...times).toFixed(2)} ms, median ${times.sort((a, b) => a - b)[Math.floor(times.length / 2)].toFixed(2)} ms`,
      );
      if (VERBOSE) console.log(plan);
    }
  for (const [name, r] of Object.entries(ranges)) {
    const times: number[] = [];
    let plan = '';
    for (let i = 0; i < RUNS; i++) {
      const sink: string[] = [];
      await readTopSuppliers(explaining(client, sink), { start: r.start, end: r.end, limit: 10 });
      plan = sink.join('\n');
      times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN));
    }
    console.log(`\n== TopSuppliers ${name}: best ${Math.min(...times).toFixed(2)} ms`);
    if (VERBOSE) console.log(plan);
  }
  client.release();
} finally {
  await pool.end();
  await database.stop();
}
