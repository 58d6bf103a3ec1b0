/**
 * npm run bench:suppliers — the /admin supplier list (GET /v1/Suppliers) at 10,000 suppliers: p50/p95 of
 * name search, status filter and every sort order, first and deep pages, 4 concurrent clients against the
 * real HTTP API on a fresh embedded Postgres. Checks that the totals match a direct count.
 *
 *   BENCH_SUPPLIERS (default 10,000), BENCH_REQUESTS per scenario (default 80), BENCH_CLIENTS (default 4)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchApi } from './bench-support.ts';

const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 80);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);

const bench = await startBenchApi('suppliers');
const { config, pool } = bench;
try {
  let t0 = performance.now();
  const words = [
    'Sanitär',
    'Heizung',
    'Wärme',
    'Rohr',
    'Bad',
    'Klima',
    'Öko',
    'Haustechnik',
    'Installation',
    'Fliesen',
  ];
  const towns = ['Bremen', 'München', 'Köln', 'Dresden', 'Ulm', 'Kiel', 'Essen', 'Gießen'];
  await pool.query(
    `WITH n AS (SELECT g FROM generate_series(1, $1::int) g)
     INSERT INTO business_partners (bp_number, name, official_company_name, city, country, organisation_type, is_supplier)
     SELECT (300000 + g)::text, ($2::text[])[1 + g % 10] || ' ' || ($3::text[])[1 + g % 8] || ' ' || g,
            ($2::text[])[1 + g % 10] || ' GmbH ' || g, ($3::text[])[1 + g % 8], 'DE', 1 + g % 4, true FROM n`,
    [SUPPLIERS, words, towns],
  );
  await pool.query(
    `INSERT INTO suppliers (bp_number, supplier_status_id, integration_status)
     SELECT bp_number, 1 + (substr(bp_number, 2)::int % 3), 1 FROM business_partners WHERE bp_number::int > 300000`,
  );
  await pool.query('ANALYZE business_partners; ANALYZE suppliers');
  const total = Number((await pool.query('SELECT count(*) AS n FROM suppliers')).rows[0].n);
  console.log(`seed: ${total.toLocaleString('de-DE')} suppliers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  await bench.listen();
  const token = await bench.login('support@example.com');
  const call = async (q: Record<string, string>) => {
    const res = await fetch(`${config.publicUrl}/v1/Suppliers?${new URLSearchParams(q)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    return (await res.json()) as { totalCount: number; items: unknown[] };
  };
  const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const scenarios: Record<string, Record<string, string>> = {
    'sort name, page 1': { PageSize: '25', SortBy: 'name' },
    'sort name desc, page 300': { PageSize: '25', SortBy: 'name', SortDirection: 'desc', Page: '300' },
    'sort number, page 200': { PageSize: '25', SortBy: 'bpNumber', Page: '200' },
    'sort status, page 1': { PageSize: '25', SortBy: 'status' },
    'status Active, page 50': { PageSize: '25', StatusId: '1', Page: '50' },
    'name search "wärme köln"': { PageSize: '25', Name: 'Wärme Köln' },
    'name search "sanitär"': { PageSize: '25', Name: 'sanitär' },
    'name search + status': { PageSize: '25', Name: 'heizung', StatusId: '3', SortBy: 'status' },
  };
  console.log(`\n${CLIENTS} concurrent clients, ${REQUESTS} requests per scenario (ms)`);
  console.log('scenario'.padEnd(30), 'p50'.padStart(7), 'p95'.padStart(7), 'max'.padStart(7), 'total'.padStart(8));
  for (const [name, query] of Object.entries(scenarios)) {
    await call(query);
    const times: number[] = [];
    let next = 0;
    let count = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < REQUESTS) {
          next++;
          const s = performance.now();
          count = (await call(query)).totalCount;
          times.push(performance.now() - s);
        }
      }),
    );
    times.sort((a, b) => a - b);
    console.log(
      name.padEnd(30),
      p(times, 0.5).toFixed(1).padStart(7),
      p(times, 0.95).toFixed(1).padStart(7),
      times[times.length - 1].toFixed(1).padStart(7),
      String(count).padStart(8),
    );
  }
  // Database side alone (the HTTP figures above include token checks and a busy machine's scheduling).
  const explain = async (label: string, sql: string, params: unknown[]) => {
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const plan = rows[0]['QUERY PLAN'][0];
    console.log(`${label.padEnd(40)} ${plan['Execution Time'].toFixed(2)} ms`);
  };
  const nameKey = "lower(translate(b.name, 'ÄÖÜäöüß', 'AOUaous'))";
  const from = 'FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number WHERE b.is_supplier';
  console.log('\nEXPLAIN ANALYZE execution time');
  await explain('page 1 by name', `SELECT s.bp_number, b.name ${from} ORDER BY ${nameKey}, s.bp_number LIMIT 25`, []);
  await explain(
    'page 300 by name',
    `SELECT s.bp_number, b.name ${from} ORDER BY ${nameKey}, s.bp_number LIMIT 25 OFFSET 7475`,
    [],
  );
  await explain('count', `SELECT count(*) ${from}`, []);
  await explain(
    'name search page 1',
    `SELECT s.bp_number, b.name ${from} AND (lower(b.name) LIKE $1 OR b.bp_number LIKE $1) ORDER BY ${nameKey} LIMIT 25`,
    ['%sanitär%'],
  );
  t0 = performance.now();
  const direct = Number(
    (
      await pool.query(
        `SELECT count(*) AS n FROM suppliers s JOIN business_partners b USING (bp_number)
          WHERE b.is_supplier AND lower(b.name) LIKE '%sanitär%'`,
      )
    ).rows[0].n,
  );
  const api = (await call({ Name: 'sanitär' })).totalCount;
  console.log(`\nexactness: API ${api}, direct count ${direct}`);
  if (api !== direct) throw new Error('supplier list total is not exact');
  console.log(`load (uptime): ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
} finally {
  await bench.close();
}
