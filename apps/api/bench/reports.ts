/**
 * npm run bench:reports — a supplier order report over 1,000,000 rows through the real API
 * (POST /v1/Reports/Generate, polling GET /v1/Reports, download), as XLSX and as CSV, on a fresh
 * embedded Postgres. Reports the generation time and the peak RSS of the process (API and job
 * worker run in it; the bench itself adds only polling).
 *
 *   BENCH_ORDERS (default 1,000,000), BENCH_FORMATS (default 'csv,xlsx')
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
import { loadOrderHistory } from '../src/seed/orders/history.ts';
import { freePort } from '../test/support/free-port.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
interface ReportItem {
  id: number;
  reportGenerationStatusId: number;
  rowCount: number;
  failureReason: string | null;
}

const FORMATS = (process.env.BENCH_FORMATS ?? 'csv,xlsx').split(',');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-bench-reports-'));
fs.chmodSync(dir, 0o755);
const server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort(), { durable: true });
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
const { pool } = runtime;
try {
  await seedDemoWorldIfEmpty(runtime.db);
  const t0 = performance.now();
  await loadOrderHistory(pool, { orders: ORDERS, seed: 7, avgLines: 0, log: (m) => console.log(`  ${m}`) });
  console.log(
    `seed: ${ORDERS.toLocaleString('de-DE')} supplier orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await runtime.app.listen({ port, host: '127.0.0.1' });
  const token = (await loginWithCodeFlow(config.publicUrl, 'admin@example.com')).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const startDate = new Date(Date.now() - 731 * 86_400_000).toISOString().slice(0, 10);

  for (const format of FORMATS) {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    }, 50);
    const started = performance.now();
    const res = await fetch(`${config.publicUrl}/v1/Reports/Generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        reportType: 1,
        startDate: startDate < '2024-01-01' ? '2024-01-01' : startDate,
        endDate: today,
        format,
      }),
    });
    if (res.status !== 202) throw new Error(`generate: ${res.status} ${await res.text()}`);
    const { id } = await res.json();
    let report: ReportItem | undefined;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      // polling like the SPA; a 429 of the rate limiter or a slow answer is simply retried
      const answer = await fetch(`${config.publicUrl}/v1/Reports?Page=1&PageSize=25`, { headers });
      if (!answer.ok) continue;
      const list = (await answer.json()) as { items: ReportItem[] };
      report = list.items.find((r) => r.id === id);
      if (report && report.reportGenerationStatusId >= 3) break;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (!report || report.reportGenerationStatusId !== 3) throw new Error(`report failed: ${report?.failureReason}`);
    const download = await fetch(`${config.publicUrl}/v1/Reports/Download/${id}`, { headers });
    let bytes = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    console.log(
      `${format}: ${report.rowCount.toLocaleString('de-DE')} rows in ${seconds.toFixed(1)} s, file ${(bytes / 1e6).toFixed(1)} MB, ` +
        `RSS ${(rssBefore / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB (heap + external peak ${(peakHeap / 1e6).toFixed(0)} MB)`,
    );
  }
  console.log(`load (uptime): ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
} finally {
  await runtime.close();
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
