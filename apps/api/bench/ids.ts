/**
 * npm run bench:ids — one IDS-Connect round trip per iteration against the real HTTP API on a fresh
 * embedded Postgres: POST /ids with a 2.5 cart of BENCH_POSITIONS positions (parse, match, store),
 * GET /v1/Ids (code → tokens), POST /v1/IdsCarts/{id} (move to the cart), POST /v1/Ids/complete (the
 * returned Warenkorb document). Half the positions are found by supplier article number, half by GTIN.
 *
 *   BENCH_ROUNDS (default 20), BENCH_POSITIONS (default 200).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startBenchApi } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 200);

const api = await startBenchApi('ids');
const { config, pool } = api;
const base = config.publicUrl;
await pool.query(`INSERT INTO manufacturers (manufacturer_id, name) VALUES ('BENCH', 'Benchwerk') ON CONFLICT DO NOTHING;
  INSERT INTO brands (brand_no, name, manufacturer_id) VALUES (990001, 'Benchmarke', 'BENCH') ON CONFLICT DO NOTHING;
  INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (990001, 'BENCH_ROOT', NULL, 'node', 'Bench') ON CONFLICT DO NOTHING;
  INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (990002, 'BENCH_LEAF', 990001, 'leaf', 'Bench') ON CONFLICT DO NOTHING;`);
for (let i = 0; i < POSITIONS; i++) {
  const pid = `BI-${i}`;
  await pool.query(
    `INSERT INTO products (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, product_name, leaf_no)
     VALUES ($1, 'BENCH~' || $2, 'BENCH', $2, replace($2, '-', ''), $3, 990001, 'Bench-Artikel ' || $2, 990002)`,
    [990001 + i, pid, String(4100000000000 + i)],
  );
  await pool.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source, unit_code, net_price, price_basis, min_order_quantity)
     VALUES ('200001~' || $2, $1, '200001', $2, replace($2, '-', ''), 1, 'C62', 9.5, 1, 1)`,
    [990001 + i, `NB-${pid}`],
  );
}
await api.listen();

const items = Array.from({ length: POSITIONS }, (_, i) =>
  i % 2
    ? `<OrderItem><RefItems><Customer>${i}</Customer></RefItems><ArtNo>NB-BI-${i}</ArtNo><Qty>2</Qty><QU>PCE</QU></OrderItem>`
    : `<OrderItem><RefItems><Customer>${i}</Customer></RefItems><EAN>${4100000000000 + i}</EAN><ArtNo>X${i}</ArtNo><Qty>1</Qty><QU>PCE</QU></OrderItem>`,
).join('');
const cart = `<?xml version="1.0" encoding="UTF-8"?><Warenkorb xmlns="http://www.itek.de/Shop-Anbindung/Warenkorb/"><WarenkorbInfo><Date>2026-11-20</Date><Time>08:00:00</Time><Version>2.5</Version></WarenkorbInfo><Order>${items}</Order></Warenkorb>`;

const stages = { entry: [] as number[], exchange: [] as number[], move: [] as number[], complete: [] as number[] };
const timed = async <T>(list: number[], work: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  const result = await work();
  list.push(performance.now() - start);
  return result;
};
for (let round = 0; round < ROUNDS; round++) {
  const form = new FormData();
  const fields = {
    action: 'wks',
    version: '2.5',
    kndnr: '100001',
    name_kunde: 'einkauf@example.com',
    pw_kunde: 'demo',
    hookurl: 'http://127.0.0.1:9/hook',
    warenkorb: cart,
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const entry = await timed(stages.entry, () =>
    fetch(`${base}/ids`, { method: 'POST', body: form, redirect: 'manual' }),
  );
  const landing = new URL(entry.headers.get('location') ?? '', base);
  const contextId = landing.searchParams.get('contextId');
  if (!contextId) throw new Error(`entry failed: ${entry.status} ${landing}`);
  const tokens = await timed(stages.exchange, async () =>
    (await fetch(`${base}/v1/Ids?code=${landing.searchParams.get('code')}`)).json(),
  );
  const headers = { authorization: `Bearer ${tokens.accessToken}` };
  const moved = await timed(stages.move, () => fetch(`${base}/v1/IdsCarts/${contextId}`, { method: 'POST', headers }));
  if (moved.status !== 201) throw new Error(`move failed: ${moved.status} ${await moved.text()}`);
  const done = await timed(stages.complete, async () => {
    const res = await fetch(`${base}/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, {
      method: 'POST',
      headers,
    });
    return res.text();
  });
  if (!done.includes('name="warenkorb"')) throw new Error('complete failed');
  // The next round starts from an empty default cart.
  await pool.query("DELETE FROM cart_items WHERE cart_id IN (SELECT id FROM carts WHERE bp_number = '100001')");
}

const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(0);
};
console.log(`IDS round trip, ${POSITIONS} positions, ${ROUNDS} rounds (ms): stage  p50  p95  max`);
for (const [name, list] of Object.entries(stages)) {
  console.log(
    `  ${name.padEnd(9)} ${pct(list, 50).padStart(5)} ${pct(list, 95).padStart(5)} ${Math.max(...list)
      .toFixed(0)
      .padStart(5)}`,
  );
}
console.log(
  `load: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await api.close();
