/**
 * The API as its own process (for the import kill test): the runtime `npm start` builds, on DATABASE_URL with the
 * test app's DATA_DIR and the CATALOGUE_IMPORT_* settings of the environment. Prints 'ready' once it listens; the
 * test kills it with SIGKILL.
 */
import { loadConfig } from '../../src/config.ts';
import { createRuntime } from '../../src/runtime.ts';

const url = process.env.DATABASE_URL!;
const config = loadConfig(process.env);
const runtime = await createRuntime(config, url, {
  logger: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
  migrate: false,
  log: { info() {}, error: (...a: unknown[]) => console.error(...a) } as unknown as Console,
});
await runtime.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write('ready\n');
