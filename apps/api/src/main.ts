import { loadConfig } from './config.ts';
import { openDatabase } from './db/bootstrap.ts';
import { createRuntime } from './runtime.ts';
import { seedDemoWorldIfEmpty, demoAccounts } from './seed/demo-world.ts';
import { seedDemoCatalogueIfEmpty } from './seed/catalogue/demo.ts';
import pino from 'pino';

const config = loadConfig();
const log = pino({ level: config.logLevel });

const database = await openDatabase(config);
log.info({ embedded: database.embedded }, database.embedded ? `embedded PostgreSQL started (data in ${config.dataDir}/postgres)` : 'using DATABASE_URL');
let runtime: Awaited<ReturnType<typeof createRuntime>> | undefined;
try {
  runtime = await createRuntime(config, database.url, { log });
  if (config.seedDemo) {
    const seeded = await seedDemoWorldIfEmpty(runtime.db, (m) => log.info(m));
    if (seeded) log.info('demo world created');
    await seedDemoCatalogueIfEmpty(runtime.db, (m) => log.info(m));
  }
  await runtime.app.listen({ port: config.port, host: config.host });
} catch (error) {
  log.error({ err: error }, 'start failed');
  await runtime?.close().catch(() => {});
  await database.stop();
  process.exit(1);
}

const line = '─'.repeat(64);
console.log(`\n${line}\n SHK-Bestellportal läuft auf ${config.publicUrl}\n API-Referenz: ${config.publicUrl}/v1/docs\n${line}`);
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
  await runtime?.close().catch((e) => log.error({ err: e }, 'close failed'));
  await database.stop().catch((e) => log.error({ err: e }, 'postgres stop failed'));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
