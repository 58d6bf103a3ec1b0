/**
 * npm run bench:checkout — checkout latency of a 50-line cart over 5 suppliers with attachments,
 * 8 buyers checking out concurrently against the real HTTP API on a fresh embedded Postgres.
 * The API runs as a process of its own, as `npm start` runs it (compiled: `node apps/api/dist/main.js`, built by
 * scripts/build-api.mjs when stale; BENCH_API=tsx: through tsx), so the buyers' HTTP clients in this process do not
 * share the API's event loop (until 2026-11-29 they did: their fetch work delayed the API's statements inside the
 * checkout's transaction). This process keeps the setup (the world and the carts filled in SQL, the stored attachments),
 * the 8 buyers' clients, the wait sampler and pg_stat_statements.
 * The carts of all rounds are filled in SQL before the measurement (not measured); the rounds then follow each other
 * without a pause, and the measurement ends only when every order of the run was delivered (transmissions sent, mails
 * out): the deliveries' CPU (the transmission worker and the order PDF thread run in the API process) is counted.
 *
 *   BENCH_ROUNDS (default 25) rounds × 8 buyers = 200 checkouts, after one round not measured (it starts the order
 *   PDF thread, fills the pools and warms the code up, as a server that has been running a while).
 *   BENCH_PG_STATS=1: Postgres with pg_stat_statements; prints the statements per checkout and the costliest
 *     statements of the measured phases (the filling between rounds is not counted).
 *   TRANSMISSION_WORKER=off: no transmissions in the API process during the run (the checkout's own cost alone).
 *   BENCH_CPU_PROFILE=<dir>: V8 CPU profiles of the API process (`--cpu-prof`, one per thread, the PDF thread's too)
 *     written there when it stops: its whole life, the setup's logins and the warm-up round included.
 * Always printed: median / p95 ms, checkouts/s of the rounds and delivered checkouts/s (rounds plus the delivery of
 * what was left when the last round ended), and the CPU milliseconds per checkout of the API process (all its threads:
 * API, transmission worker, PDF thread), of Postgres and of this process (the bench's HTTP clients, the delivery
 * polling, with BENCH_PG_STATS=1 the wait sampler) from the first round until everything was delivered, with the load
 * average beside them (the machine may be shared).
 */
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { hashPassword } from '../src/modules/identity/password.ts';
import { pdfDocument } from '../src/lib/pdf.ts';
import { randomUUID } from 'node:crypto';
import { fileStorage } from '../src/modules/storage/index.ts';
import {
  postgresCpuMs,
  processCpuMs,
  processPeakRssMb,
  startApiProcess,
  startBenchApi,
  stopApiProcess,
} from './bench-support.ts';

const BUYERS = Number(process.env.BENCH_BUYERS ?? 8);
const SUPPLIERS = ['200001', '200002', '200003', '200004', '200006'];
const LINES = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PG_STATS = process.env.BENCH_PG_STATS === '1';
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
/**
 * How the carts' attachments are kept: 'stored' (default) as an upload through the API keeps them since migration
 * 0490 (the file in the file storage, the row names it by storage_key; the checkout copies the key); 'inline' as
 * attachments uploaded before 0490 (the bytes in the row; the checkout copies the bytes).
 */
const ATTACHMENTS = process.env.BENCH_ATTACHMENTS === 'inline' ? 'inline' : 'stored';

// The in-process runtime only migrates the fresh database and seeds the demo world; the API under measurement runs as
// a process of its own (below).
const api = await startBenchApi('checkout', { pgStats: PG_STATS });
const { config } = api;
const pgDir = path.join(api.dir, 'pg');
await api.stopApi();
const pool = new pg.Pool({ connectionString: api.databaseUrl, max: 4 });

// Bench world: 8 buyer partners with a user each, approved at 5 suppliers; 50 offers (10 per supplier).
const hash = await hashPassword('demo');
await pool.query(`INSERT INTO manufacturers (manufacturer_id, name) VALUES ('BENCH', 'Benchwerk') ON CONFLICT DO NOTHING;
  INSERT INTO brands (brand_no, name, manufacturer_id) VALUES (990001, 'Benchmarke', 'BENCH') ON CONFLICT DO NOTHING;
  INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (990001, 'BENCH_LEAF', NULL, 'leaf', 'Bench') ON CONFLICT DO NOTHING;`);
const offerIds: string[] = [];
for (let i = 0; i < LINES; i++) {
  const supplier = SUPPLIERS[i % SUPPLIERS.length];
  await pool.query(
    `INSERT INTO products (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, brand_no, product_name, leaf_no)
    VALUES ($1, 'BENCH~' || $2, 'BENCH', $2, $2, 990001, 'Benchartikel ' || $2, 990001) ON CONFLICT DO NOTHING`,
    [990000 + i, String(990000 + i)],
  );
  const id = `${supplier}~BENCH-${i}`;
  await pool.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source, unit_code, net_price, price_basis, min_order_quantity)
    VALUES ($1, $2, $3, $4, $4, 1, 'C62', $5, 1, 1) ON CONFLICT DO NOTHING`,
    [id, 990000 + i, supplier, `BENCH-${i}`, 3 + i],
  );
  offerIds.push(id);
}
const buyers: { email: string; bp: string; cartIds: number[]; token: string }[] = [];
for (let b = 0; b < BUYERS; b++) {
  const bp = `19000${b}`;
  const email = `bench${b}@example.com`;
  await pool.query(
    `INSERT INTO business_partners (bp_number, name, street, house_number, postal_code, city, country) VALUES ($1, $2, 'Benchweg', '1', '10115', 'Berlin', 'DE') ON CONFLICT DO NOTHING`,
    [bp, `Bench Käufer ${b}`],
  );
  const user = `00000000-0000-4000-9000-00000000000${b}`;
  await pool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number) VALUES ($1, $2, 'Bench', $3, 1, $4, $5) ON CONFLICT DO NOTHING`,
    [user, email, String(b), hash, bp],
  );
  await pool.query('INSERT INTO user_business_partners VALUES ($1, $2) ON CONFLICT DO NOTHING', [user, bp]);
  for (const s of SUPPLIERS) {
    await pool.query(
      `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number) VALUES ($1, $2, 1, 'B-' || $2) ON CONFLICT DO NOTHING`,
      [s, bp],
    );
  }
  // One cart per round (the first the default cart), all filled before the measurement.
  const carts = await pool.query<{ id: number }>(
    `INSERT INTO carts (bp_number, name, is_default) SELECT $1, 'Bench ' || n, n = 1 FROM generate_series(1, $2) n RETURNING id`,
    [bp, ROUNDS + 1],
  );
  buyers.push({ email, bp, cartIds: carts.rows.map((r) => Number(r.id)).sort((a, b) => a - b), token: '' });
}
const apiProcess = await startApiProcess({
  port: api.port,
  nodeArgs: CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [],
  env: {
    DATABASE_URL: api.databaseUrl,
    PUBLIC_URL: config.publicUrl,
    DATA_DIR: api.dir,
    WEB_DIST_DIR: path.join(api.dir, 'none'),
    // the attachments this process stores below must be where the API reads them
    STORAGE_BACKEND: config.storageBackend,
    // off: the checkout alone, without the transmissions of the orders sent meanwhile (a diagnosis)
    TRANSMISSION_WORKER: process.env.TRANSMISSION_WORKER === 'off' ? 'off' : 'on',
  },
});
const apiPid = apiProcess.pid!;
// a bench that fails midway leaves no API process behind
process.on('exit', () => apiProcess.exitCode === null && apiProcess.kill('SIGKILL'));
for (const buyer of buyers) buyer.token = await api.login(buyer.email);

const storage = fileStorage({ config, pool });
const attachment = pdfDocument({ title: 'Aufmaß', lines: ['Bench-Anhang'] });
async function fillCart(cartId: number) {
  await pool.query(
    `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity, comment)
    SELECT $1, id, split_part(id, '~', 1), split_part(id, '~', 2), 1 + (n % 7), 'Notiz ' || n FROM unnest($2::text[]) WITH ORDINALITY AS o(id, n)`,
    [cartId, offerIds],
  );
  // Every fifth line carries an attachment.
  if (ATTACHMENTS === 'inline') {
    await pool.query(
      `INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, content)
      SELECT id, 'Aufmass.pdf', 'application/pdf', $2, $3 FROM cart_items WHERE cart_id = $1 AND id % 5 = 0`,
      [cartId, attachment.length, attachment],
    );
    return;
  }
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM cart_items WHERE cart_id = $1 AND id % 5 = 0', [
    cartId,
  ]);
  for (const { id } of rows) {
    // the key as CartItemsService gives an upload (CART_ATTACHMENTS_PREFIX)
    const key = `files/cart-attachments/${id}/${randomUUID()}`;
    await storage.put(key, attachment);
    await pool.query(
      `INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, storage_key)
      VALUES ($1, 'Aufmass.pdf', 'application/pdf', $2, $3)`,
      [id, attachment.length, key],
    );
  }
}

if (PG_STATS) {
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  // planning counted too: a statement sent without a name is parsed and planned on every call
  await pool.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
  await pool.query('SELECT pg_reload_conf()');
}
/** pg_stat_statements of the measured phases, summed over the rounds (reset before each, read after each). */
const statements = new Map<string, { calls: number; totalMs: number; planMs: number }>();
async function collectStatements() {
  const { rows } = await pool.query<{ query: string; calls: string; total_ms: number; plan_ms: number }>(
    `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 150) AS query, calls, total_exec_time AS total_ms,
            total_plan_time AS plan_ms
       FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'`,
  );
  for (const r of rows) {
    const s = statements.get(r.query) ?? { calls: 0, totalMs: 0, planMs: 0 };
    s.calls += Number(r.calls);
    s.totalMs += r.total_ms;
    s.planMs += r.plan_ms;
    statements.set(r.query, s);
  }
}
/**
 * Waits of the measured phases (BENCH_PG_STATS=1): pg_stat_activity sampled every 5 ms on a connection of its own; per
 * wait event and statement the time backends waited (each sample weighs the time since the last one): locks, the WAL
 * (IO/WALSync, LWLock/WALWrite: the commit's flush), and 'Client/ClientRead' of a transaction that waits for the API's
 * next statement (the API's own delays inside a transaction).
 */
const lockWaits = new Map<string, number>();
let sampling = false;
async function sampleLockWaits() {
  const client = new pg.Client({ connectionString: api.databaseUrl });
  await client.connect();
  let last = performance.now();
  for (;;) {
    // each waiting backend counts for the time since the previous sample (a loaded machine samples less often)
    const now = performance.now();
    const dt = now - last;
    last = now;
    if (sampling) {
      const { rows } = await client.query<{ query: string; n: number }>(
        `SELECT wait_event_type || '/' || wait_event || ': ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query,
                count(*)::int AS n
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type IS NOT NULL
            AND (wait_event_type IN ('Lock', 'LWLock', 'IO', 'IPC', 'Timeout')
                 OR (wait_event_type = 'Client' AND state = 'idle in transaction'))
          GROUP BY 1`,
      );
      for (const r of rows) lockWaits.set(r.query, (lockWaits.get(r.query) ?? 0) + r.n * dt);
    }
    if (stopSampling) break;
    await sleep(5);
  }
  await client.end();
}
let stopSampling = false;
const sampler = PG_STATS ? sampleLockWaits() : null;

/**
 * Waits until every transmission is sent and every mail is out (TRANSMISSION_WORKER=off: only the mails), polling
 * every 20 ms; gives up after two minutes (the run then reports what was not sent).
 */
async function drained() {
  const deadline = Date.now() + 120_000;
  const transmissions = process.env.TRANSMISSION_WORKER !== 'off';
  while (Date.now() < deadline) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT ${transmissions ? `(SELECT count(*) FROM supplier_order_transmissions WHERE state IN ('pending', 'sending'))` : '0'}
            + (SELECT count(*) FROM mail_outbox WHERE status = 'pending') AS n`,
    );
    if (Number(rows[0].n) === 0) return;
    await sleep(20);
  }
}

const latencies: number[] = [];
let apiCpuMs = 0;
let benchCpuMs = 0;
let pgCpuMs = 0;
const loadBefore = os.loadavg();
let measuredWallMs = 0;
let failures = 0;
for (const b of buyers) for (const cartId of b.cartIds) await fillCart(cartId);
// The round before the measurement, delivered; nothing of the setup still in flight when the measurement starts.
const warmUp = buyers.map((b) => b.cartIds.shift()!);
await Promise.all(
  buyers.map(async (b, i) => {
    const res = await fetch(`${config.publicUrl}/v1/MultiCarts/${warmUp[i]}/checkout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}` },
    });
    if (res.status !== 200) throw new Error(`warm-up checkout: ${res.status} ${await res.text()}`);
  }),
);
await drained();
const started = performance.now();
const cpuStart = process.cpuUsage();
const apiCpuStart = processCpuMs(apiPid);
const pgCpuStart = postgresCpuMs(pgDir);
if (PG_STATS) await pool.query('SELECT pg_stat_statements_reset()');
for (let round = 0; round < ROUNDS; round++) {
  const roundStart = performance.now();
  sampling = true;
  await Promise.all(
    buyers.map(async (b) => {
      const t0 = performance.now();
      const res = await fetch(`${config.publicUrl}/v1/MultiCarts/${b.cartIds[round]}/checkout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.token}` },
      });
      const elapsed = performance.now() - t0;
      if (res.status !== 200) {
        failures++;
        console.error(res.status, await res.text());
      } else {
        await res.json();
        latencies.push(elapsed);
      }
    }),
  );
  sampling = false;
  measuredWallMs += performance.now() - roundStart;
}
// What the rounds left to deliver: the run ends when every transmission is sent and every mail is out.
const drainStart = performance.now();
await drained();
const drainMs = performance.now() - drainStart;
const cpu = process.cpuUsage(cpuStart);
benchCpuMs += (cpu.user + cpu.system) / 1000;
apiCpuMs += processCpuMs(apiPid) - apiCpuStart;
const apiPeakRssMb = processPeakRssMb(apiPid);
pgCpuMs += postgresCpuMs(pgDir) - pgCpuStart;
if (PG_STATS) await collectStatements();
const wall = performance.now() - started;
const { rows: undelivered } = await pool.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM supplier_order_transmissions WHERE state <> 'sent'`,
);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
const { rows: lineCount } = await pool.query('SELECT count(*)::int - $1 AS n FROM order_lines', [LINES * BUYERS]);
if (PG_STATS) {
  const top = [...statements.entries()]
    .map(([query, s]) => ({
      perCheckout: +(s.calls / latencies.length).toFixed(2),
      msPerCheckout: +(s.totalMs / latencies.length).toFixed(3),
      planMsPerCheckout: +(s.planMs / latencies.length).toFixed(3),
      meanMs: +(s.totalMs / s.calls).toFixed(3),
      query,
    }))
    .sort((a, b) => b.msPerCheckout - a.msPerCheckout);
  console.table(top.slice(0, Number(process.env.BENCH_PG_STATS_TOP ?? 25)));
  const counted = top.filter((t) => !['BEGIN', 'COMMIT', 'ROLLBACK'].includes(t.query));
  stopSampling = true;
  await sampler;
  console.log(
    'waits of all backends (ms per checkout, sampled every ~5 ms; ClientRead: in a transaction, waiting for the API):',
  );
  console.table(
    [...lockWaits.entries()]
      .map(([query, n]) => ({ msPerCheckout: +(n / latencies.length).toFixed(2), query }))
      .sort((a, b) => b.msPerCheckout - a.msPerCheckout)
      .slice(0, 20),
  );
  // The API's named statements (pg_prepared_statements: generic or custom plans) are not listed any more: that view
  // shows only the asking session's, and the API's connections belong to its own process now.
  console.log(
    'statements per checkout (without BEGIN/COMMIT):',
    +counted.reduce((s, t) => s + t.perCheckout, 0).toFixed(1),
    '· their execution ms per checkout:',
    +counted.reduce((s, t) => s + t.msPerCheckout, 0).toFixed(2),
    '· their planning ms per checkout:',
    +counted.reduce((s, t) => s + t.planMsPerCheckout, 0).toFixed(2),
  );
}
console.log(
  JSON.stringify(
    {
      checkouts: latencies.length,
      failures,
      linesPerCart: LINES,
      attachments: ATTACHMENTS,
      suppliersPerCart: SUPPLIERS.length,
      concurrency: BUYERS,
      orderLinesWritten: lineCount[0].n,
      medianMs: +pct(50).toFixed(1),
      p95Ms: +pct(95).toFixed(1),
      maxMs: +latencies[latencies.length - 1].toFixed(1),
      checkoutsPerSecond: +(latencies.length / (measuredWallMs / 1000)).toFixed(1),
      // From the first round until the last order was delivered (the worker's backlog at the end included).
      deliveredCheckoutsPerSecond: +(latencies.length / (wall / 1000)).toFixed(1),
      drainAfterLastRoundMs: Math.round(drainMs),
      transmissionsNotSent: undelivered[0].n,
      // The API process's peak resident memory over its life (VmHWM).
      apiProcessPeakRssMb: apiPeakRssMb,
      // From the first round until everything was delivered. The API process (all its threads) runs the API, the
      // transmission worker and its PDF thread, the mail jobs.
      apiCpuMsPerCheckout: +(apiCpuMs / latencies.length).toFixed(2),
      postgresCpuMsPerCheckout: +(pgCpuMs / latencies.length).toFixed(2),
      // This process: the 8 buyers' HTTP clients, the delivery polling (and the wait sampler with BENCH_PG_STATS=1).
      benchClientsCpuMsPerCheckout: +(benchCpuMs / latencies.length).toFixed(2),
      cpus: os.cpus().length,
      loadAverageBefore: loadBefore.map((v) => +v.toFixed(2)),
      loadAverageAfter: os.loadavg().map((v) => +v.toFixed(2)),
    },
    null,
    2,
  ),
);
await stopApiProcess(apiProcess);
await pool.end();
await api.close();
