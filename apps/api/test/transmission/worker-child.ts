/**
 * A transmission worker as its own process (for the kill test and the benchmark): the same worker the
 * app runs, on DATABASE_URL with the app's DATA_DIR (workflow secret key, AS2 identity).
 */
import { createDb, createPool } from '../../src/db/pool.ts';
import { loadConfig } from '../../src/config.ts';
import { Jobs } from '../../src/modules/jobs/jobs.ts';
import { MailService, createFileTransport, createSmtpTransport } from '../../src/modules/mail/mail.service.ts';
import { createTransmissionWorker } from '../../src/modules/transmission/index.ts';
import path from 'node:path';

const url = process.env.DATABASE_URL!;
const config = loadConfig(process.env);
const pool = createPool(url);
const db = createDb(pool);
const jobs = new Jobs(url);
const transport = config.smtpUrl
  ? createSmtpTransport(config.smtpUrl)
  : createFileTransport(path.join(config.dataDir, 'mail'));
const mail = new MailService(pool, jobs, transport, config.mailFrom);
const { worker } = createTransmissionWorker({ db, mail, config }, process.env, {
  info: () => undefined,
  error: (...a) => console.error(...a),
});
worker.start();
process.stdout.write('ready\n');
const stop = async () => {
  await worker.stop();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
