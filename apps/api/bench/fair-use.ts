/**
 * npm run bench:fair-use — one user's burst of writes against another user's reads: BENCH_ROUNDS (10) rounds of
 * BENCH_BURST (50) parallel `POST /v1/MultiCarts` by einkauf@example.com while two readers of einkauf2@example.com
 * call `GET /v1/MultiCarts` until the burst has ended. Target: the readers' p95 ≤ 200 ms, every read answered 200.
 * The test (test/security/fair-use.test.ts) holds the behaviour; this measures the figure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { ensureDatabase } from '../src/db/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createRuntime } from '../src/runtime.ts';
import { seedDemoWorldIfEmpty } from '../src/seed/demo-world.ts';
import { seedDemoCatalogueIfEmpty } from '../src/seed/catalogue/demo.ts';
import { freePort } from '../test/support/free-port.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 50);
const TARGET_P95_MS = 200;

const loadBefore = os.loadavg();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-bench-fair-use-'));
fs.chmodSync(dir, 0o755);
const server = await startEmbeddedPostgres(path.join(dir, 'pg'), undefined, { durable: true });
await ensureDatabase(server.url('postgres'), 'bench');
const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  WEB_DIST_DIR: path.join(dir, 'none'),
});
const runtime = await createRuntime(config, server.url('bench'), {
  logger: false,
  log: { info() {}, warn() {}, error() {} } as unknown as Console,
});
await seedDemoWorldIfEmpty(runtime.db);
await seedDemoCatalogueIfEmpty(runtime.db, () => {}, 2000);
await runtime.app.listen({ port, host: '127.0.0.1' });
const writer = (await loginWithCodeFlow(config.publicUrl, 'einkauf@example.com')).access_token;
const reader = (await loginWithCodeFlow(config.publicUrl, 'einkauf2@example.com')).access_token;

const call = (token: string, method: string, body?: unknown) =>
  fetch(`${config.publicUrl}/v1/MultiCarts`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (res) => ({ status: res.status, text: await res.text() }));

const reads: number[] = [];
const writeStatuses: Record<number, number> = {};
let readErrors = 0;
for (let round = 0; round < ROUNDS; round++) {
  // The writer's carts of the round before are gone: every burst meets the same partner.
  await runtime.pool.query(
    `DELETE FROM carts WHERE bp_number = (SELECT current_bp_number FROM users WHERE email = 'einkauf@example.com')
        AND name LIKE 'Ansturm %'`,
  );
  let done = false;
  const burst = Promise.all(
    Array.from({ length: BURST }, (_, i) => call(writer, 'POST', { name: `Ansturm ${round}-${i}` })),
  ).finally(() => (done = true));
  const readUntilDone = async () => {
    while (!done) {
      const started = performance.now();
      const res = await call(reader, 'GET');
      reads.push(performance.now() - started);
      if (res.status !== 200) readErrors++;
    }
  };
  const [writes] = await Promise.all([burst, readUntilDone(), readUntilDone()]);
  for (const w of writes) writeStatuses[w.status] = (writeStatuses[w.status] ?? 0) + 1;
}

const pct = (p: number) => {
  const sorted = [...reads].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
};
const report = {
  rounds: ROUNDS,
  burst: BURST,
  reads: reads.length,
  readErrors,
  writeStatuses,
  readMedianMs: pct(50),
  readP95Ms: pct(95),
  readMaxMs: pct(100),
  loadAverageBefore: loadBefore.map((v) => +v.toFixed(2)),
  loadAverageAfter: os.loadavg().map((v) => +v.toFixed(2)),
  cpus: os.cpus().length,
};
console.log(JSON.stringify(report, null, 2));
const ok = readErrors === 0 && report.readP95Ms <= TARGET_P95_MS;
console.log(ok ? 'Ziel erreicht.' : 'Ziel verfehlt.');
await runtime.close();
await server.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
