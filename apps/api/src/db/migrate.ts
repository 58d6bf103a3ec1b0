import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { repoRoot } from '../config.ts';

/** From the repository root: this module runs from apps/api/src/db or from the compiled apps/api/dist. */
export const migrationsDir = path.join(repoRoot, 'apps/api/migrations');

/** An applied migration whose file differs from what was applied: the database and the code no longer agree. */
export class MigrationChangedError extends Error {
  constructor(readonly files: string[]) {
    super(
      `Der Start wird abgebrochen: ${files.length === 1 ? 'die Migration' : 'die Migrationen'} ${files.join(', ')} ` +
        `${files.length === 1 ? 'wurde' : 'wurden'} nach dem Anwenden geändert (die Prüfsumme der Datei weicht von der ` +
        'gespeicherten ab). Eine angewendete Migration wird nie geändert: die alte Fassung wiederherstellen und die ' +
        'Änderung als neue Migration schreiben.',
    );
    this.name = 'MigrationChangedError';
  }
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** sha256 of the file's bytes, hex. */
const checksumOf = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

function readMigrations(dir: string): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const content = fs.readFileSync(path.join(dir, name));
      return { name, sql: content.toString('utf8'), checksum: checksumOf(content) };
    });
}

/**
 * The bookkeeping table, created and extended here because it exists before (and outside) every migration.
 * Rows applied before checksums were kept have none; they get the current file's (see `verifyApplied`).
 */
async function ensureMigrationTable(client: pg.PoolClient) {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  await client.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
}

/**
 * Compares every applied migration with its file. A stored checksum that differs refuses the start (naming every
 * changed file) before anything is applied; a row without one records the file's current checksum.
 */
async function verifyApplied(client: pg.PoolClient, files: MigrationFile[]): Promise<Set<string>> {
  const { rows } = await client.query<{ name: string; checksum: string | null }>(
    'SELECT name, checksum FROM schema_migrations',
  );
  const applied = new Map(rows.map((r) => [r.name, r.checksum]));
  const changed = files.filter((f) => applied.has(f.name) && applied.get(f.name) && applied.get(f.name) !== f.checksum);
  if (changed.length) throw new MigrationChangedError(changed.map((f) => f.name));
  for (const f of files.filter((f) => applied.has(f.name) && !applied.get(f.name)))
    await client.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1 AND checksum IS NULL', [
      f.name,
      f.checksum,
    ]);
  return new Set(applied.keys());
}

/**
 * Applies the committed SQL migrations (migrations/NNNN_name.sql) in order, each in its own
 * transaction, recording them with their checksum in schema_migrations. An applied file that changed
 * since stops the start (MigrationChangedError). An advisory lock keeps two starting processes from
 * migrating the same database at once.
 */
export async function migrate(
  pool: pg.Pool,
  log: (msg: string) => void = () => {},
  dir: string = migrationsDir,
): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    await ensureMigrationTable(client);
    const files = readMigrations(dir);
    const done = await verifyApplied(client, files);
    for (const file of files) {
      if (done.has(file.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(file.sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
          file.name,
          file.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file.name} failed: ${(error as Error).message}`);
      }
      applied.push(file.name);
      log(`migration applied: ${file.name}`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
  return applied;
}
