/**
 * `npm run worker` — the order-transmission worker as its own process (docs/transmission.md "Worker process"):
 * the same worker the API runs in-process, on DATABASE_URL with the API's DATA_DIR (workflow secret key, AS2
 * identity) and the same TRANSMISSION_* and SMTP settings. Run the API with TRANSMISSION_WORKER=off beside it, so
 * rendering order documents (PDF, XML) never holds up the API's event loop; several workers may run at once (they
 * claim orders with a lease). Prints 'ready' once it polls; SIGTERM/SIGINT finish the current batch and stop.
 */
import path from 'node:path';
import { createDb, createPool } from './db/pool.ts';
import { loadConfigOrExit } from './config.ts';
import { Jobs } from './modules/jobs/jobs.ts';
import { MailService, createFileTransport, createSmtpTransport } from './modules/mail/mail.service.ts';
import { createTransmissionWorker } from './modules/transmission/index.ts';
import { Lifecycle } from './lifecycle.ts';

const config = loadConfigOrExit();
const url = config.databaseUrl;
if (!url) {
  console.error('DATABASE_URL fehlt: der Worker verbindet sich mit der Datenbank der API.');
  process.exit(2);
}
const pool = createPool(url);
const db = createDb(pool);
const jobs = new Jobs(url);
const transport = config.smtpUrl
  ? createSmtpTransport(config.smtpUrl)
  : createFileTransport(path.join(config.dataDir, 'mail'));
const mail = new MailService(pool, jobs, transport, config.mailFrom);
const { worker } = createTransmissionWorker(
  { db, mail, config },
  {
    info: () => undefined,
    error: (...a) => console.error(...a),
  },
);
// This process's part of the node's background work (lifecycle.ts): the transmission worker alone.
const lifecycle = new Lifecycle();
lifecycle.provide('transmission worker', worker);
await lifecycle.start();
process.stdout.write('ready\n');
const stop = async () => {
  await lifecycle.stop();
  await mail.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
