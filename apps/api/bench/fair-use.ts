/**
 * npm run bench:fair-use — one user's burst of writes against another user's reads: BENCH_ROUNDS (10) rounds of
 * BENCH_BURST (50) parallel `POST /v1/MultiCarts` by einkauf@example.com while two readers of einkauf2@example.com
 * call `GET /v1/MultiCarts` until the burst has ended. Target: the readers' p95 ≤ 200 ms, every read answered 200.
 * The test (test/security/fair-use.test.ts) holds the behaviour; this measures the figure.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startBenchApi } from './bench-support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 50);
const TARGET_P95_MS = 200;

const loadBefore = os.loadavg();
const api = await startBenchApi('fair-use', { products: 2000 });
await api.listen();
const { config, runtime } = api;
const writer = await api.login('einkauf@example.com');
const reader = await api.login('einkauf2@example.com');

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
await api.close();
process.exit(ok ? 0 : 1);
