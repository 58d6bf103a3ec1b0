/**
 * A report worker as its own process (for the crash test): the job handler and the sweeper the app runs,
 * on DATABASE_URL with the app's DATA_DIR. REPORT_LEASE_MS / REPORT_SWEEP_MS as in the app.
 */
import { createDb, createPool } from '../../src/db/pool.ts';
import { loadConfig } from '../../src/config.ts';
import { Jobs } from '../../src/modules/jobs/jobs.ts';
import { ReportsService, reportWorkerOptionsOf } from '../../src/modules/reports/reports.service.ts';

const url = process.env.DATABASE_URL!;
const config = loadConfig(process.env);
const pool = createPool(url);
const db = createDb(pool);
const quiet = { info: () => undefined, error: (...a: unknown[]) => console.error(...a) };
const jobs = new Jobs(url, quiet);
const service = new ReportsService({ db, pool, jobs, config }, reportWorkerOptionsOf(config), quiet);
service.registerWorker();
await jobs.start();
service.startSweeper();
process.stdout.write('ready\n');
const stop = async () => {
  service.stopSweeper();
  await jobs.stop();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
