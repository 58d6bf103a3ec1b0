/**
 * npm run bench:reports — a supplier order report over 1,000,000 rows through the real API
 * (POST /v1/Reports/Generate, polling GET /v1/Reports, download), as CSV and as XLSX.
 *
 * 1. Starts (or reuses) an embedded PostgreSQL under BENCH_DATA_DIR and loads BENCH_ORDERS supplier
 *    orders when the data directory does not already hold exactly that many (seeding runs in this process).
 * 2. Starts the API as its own process, as in production (`npm start`: `node apps/api/dist/main.js`, compiled
 *    by scripts/build-api.mjs when stale; BENCH_API=tsx: `node --import tsx apps/api/src/main.ts`; job worker included), and samples that process's RSS (/proc/<pid>/status VmRSS) every 200 ms while each
 *    report is generated; its VmHWM (the kernel's peak RSS) is read at the end.
 * 3. Reports per format: generation time (request → Completed seen by polling once a second), file size,
 *    API RSS before and peak.
 *
 * Env: BENCH_ORDERS (1000000), BENCH_FORMATS ('csv,xlsx'), BENCH_DATA_DIR (/tmp/shk-bench-reports),
 * BENCH_PG_PORT (55220), BENCH_API_PORT (3220), BENCH_CPU_PROF=1 (the API writes a V8 CPU profile to
 * BENCH_DATA_DIR/profiles when it stops), BENCH_API_NODE_OPTIONS (extra node flags for the API process).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loadOrderHistory } from '../src/seed/orders/history.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';
import { openBenchDatabase, startApiProcess, stopApiProcess } from './bench-support.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const FORMATS = (process.env.BENCH_FORMATS ?? 'csv,xlsx').split(',');
const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-reports';
const pgPort = Number(process.env.BENCH_PG_PORT ?? 55220);
const apiPort = Number(process.env.BENCH_API_PORT ?? 3220);
const cpuProfile = process.env.BENCH_CPU_PROF === '1';
const apiUrl = `http://127.0.0.1:${apiPort}`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

interface ReportItem {
  id: number;
  reportGenerationStatusId: number;
  rowCount: number;
  failureReason: string | null;
}

// ——— database (reused when it already holds BENCH_ORDERS orders) ———
const marker = path.join(dataDir, 'orders.txt');
const { server, databaseUrl, pool } = await openBenchDatabase(dataDir, {
  pgPort,
  keepIf: { file: marker, content: String(ORDERS) },
});
let api: ChildProcess | undefined;
try {
  if (!fs.existsSync(marker)) {
    const t0 = performance.now();
    await loadOrderHistory(pool, { orders: ORDERS, seed: 7, avgLines: 0, log: (m) => console.log(`  ${m}`) });
    await pool.query('ANALYZE');
    fs.writeFileSync(marker, String(ORDERS));
    console.log(
      `seed: ${ORDERS.toLocaleString('de-DE')} supplier orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } else console.log(`seed: reusing ${ORDERS.toLocaleString('de-DE')} supplier orders in ${dataDir}`);
  // Earlier runs' reports would make the user's list longer and keep files; start clean.
  await pool.query('DELETE FROM reports');
  fs.rmSync(path.join(dataDir, 'reports'), { recursive: true, force: true });

  // ——— the API as its own process ———
  const nodeArgs = [
    ...(process.env.BENCH_API_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
    ...(cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(dataDir, 'profiles')}`] : []),
  ];
  console.log(
    `API: node ${nodeArgs.join(' ')} ${process.env.BENCH_API === 'tsx' ? '--import tsx apps/api/src/main.ts' : 'apps/api/dist/main.js'}`,
  );
  api = await startApiProcess({
    port: apiPort,
    nodeArgs,
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: apiUrl, DATA_DIR: dataDir },
  });
  const pid = api.pid!;
  const deadline = Date.now() + 180_000;
  for (;;) {
    const up = await fetch(`${apiUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || api.exitCode !== null) throw new Error('API did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
  const status = (field: 'VmRSS' | 'VmHWM') =>
    Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) * 1024;

  // Access tokens expire during a long run on a busy machine: a 401 signs in again.
  const signIn = async () => `Bearer ${(await loginWithCodeFlow(apiUrl, 'admin@example.com')).access_token}`;
  const headers = { authorization: await signIn(), 'content-type': 'application/json' };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const twoYears = new Date(Date.now() - 731 * 86_400_000).toISOString().slice(0, 10);
  const startDate = twoYears < '2024-01-01' ? '2024-01-01' : twoYears;
  console.log(`API pid ${pid}: RSS ${mb(status('VmRSS'))} after start and sign-in`);

  for (const format of FORMATS) {
    const rssBefore = status('VmRSS');
    let peak = rssBefore;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, status('VmRSS'));
      } catch {
        // the process is gone; the poll below notices
      }
    }, 200);
    const started = performance.now();
    const res = await fetch(`${apiUrl}/v1/Reports/Generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reportType: 1, startDate, endDate: today, format }),
    });
    if (res.status !== 202) throw new Error(`generate: ${res.status} ${await res.text()}`);
    const { id } = await res.json();
    let report: ReportItem | undefined;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      if (api.exitCode !== null) throw new Error(`API exited with ${api.exitCode}`);
      // polling like the SPA; a 429 of the rate limiter or a slow answer is simply retried
      const answer = await fetch(`${apiUrl}/v1/Reports?Page=1&PageSize=25`, { headers });
      if (answer.status === 401) headers.authorization = await signIn();
      if (!answer.ok) continue;
      const list = (await answer.json()) as { items: ReportItem[] };
      report = list.items.find((r) => r.id === id);
      if (report && report.reportGenerationStatusId >= 3) break;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (!report || report.reportGenerationStatusId !== 3) throw new Error(`report failed: ${report?.failureReason}`);
    const download = await fetch(`${apiUrl}/v1/Reports/Download/${id}`, { headers });
    if (!download.ok) throw new Error(`download: ${download.status}`);
    let bytes = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const recorded = await pool.query<{ s: number }>(
      'SELECT extract(epoch FROM finished_at - created_at)::float8 AS s FROM reports WHERE id = $1',
      [id],
    );
    console.log(
      `${format}: ${report.rowCount.toLocaleString('de-DE')} rows in ${seconds.toFixed(1)} s ` +
        `(created → finished as recorded: ${recorded.rows[0].s.toFixed(1)} s), file ${(bytes / 1e6).toFixed(1)} MB, ` +
        `API RSS ${mb(rssBefore)} before, peak ${mb(peak)} (sampled every 200 ms)`,
    );
  }
  console.log(`API peak RSS over the whole run (VmHWM): ${mb(status('VmHWM'))}`);
  console.log(`load (uptime): ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
} finally {
  if (api) await stopApiProcess(api);
  await pool.end();
  await server.stop();
}
