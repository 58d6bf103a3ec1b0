/**
 * npm run storage:move -- --from local --to postgres   (or --from postgres --to local)
 * Copies every file of one storage backend into the other (DATA_DIR ⇄ the database of DATABASE_URL or the embedded
 * PostgreSQL), streaming, and prints a summary. Idempotent: files the target already has with the same size are
 * skipped, so a move broken off is run again. The source stays; set STORAGE_BACKEND to the target and restart the
 * nodes once it has run (docs/operations.md).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/bootstrap.ts';
import { createPool } from '../db/pool.ts';
import { migrate } from '../db/migrate.ts';
import { copyAllFiles, createStorage, type StorageBackend } from '../modules/storage/index.ts';

const backends: StorageBackend[] = ['local', 'postgres'];
const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } });
const from = values.from as StorageBackend;
const to = values.to as StorageBackend;
if (!backends.includes(from) || !backends.includes(to) || from === to) {
  console.error('Aufruf: npm run storage:move -- --from local --to postgres   (oder --from postgres --to local)');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config);
const pool = createPool(database.url, 4);
let exitCode = 0;
try {
  await migrate(pool);
  const started = Date.now();
  const summary = await copyAllFiles(
    createStorage(from, config.dataDir, pool),
    createStorage(to, config.dataDir, pool),
    (m) => console.error(`Fehler: ${m}`),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${summary.copied} Dateien kopiert (${(summary.bytes / 1024 / 1024).toFixed(1)} MB), ${summary.skipped} schon vorhanden, ` +
      `${summary.failed} fehlgeschlagen, in ${seconds} s (${from} → ${to}).`,
  );
  console.log(JSON.stringify({ from, to, ...summary, seconds: Number(seconds) }));
  if (summary.failed) exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await pool.end();
  await database.stop();
}
process.exit(exitCode);
