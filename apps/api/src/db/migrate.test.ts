// Migrations are trusted only as applied: each applied file's checksum is kept, and a file changed afterwards stops
// the start with a German message naming it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../config.ts';
import { ensureDatabase } from './bootstrap.ts';
import { MigrationChangedError, migrate, migrationsDir } from './migrate.ts';
import { dropDatabase } from '../../test/support/test-app.ts';

const adminUrl = inject('pgAdminUrl');
const databases: string[] = [];
const pools: pg.Pool[] = [];
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function freshDatabase(template?: string) {
  const name = `t_migrate_${crypto.randomBytes(5).toString('hex')}`;
  await ensureDatabase(adminUrl, name, template);
  databases.push(name);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return { url, pool };
}

afterAll(async () => {
  for (const pool of pools) await pool.end();
  for (const name of databases) await dropDatabase(adminUrl, name);
});

describe('migration checksums', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-migrations-'));
    fs.writeFileSync(path.join(dir, '0001_first.sql'), 'CREATE TABLE first_table (id int);\n');
    fs.writeFileSync(path.join(dir, '0002_second.sql'), 'CREATE TABLE second_table (id int);\n');
  });

  it('stores the sha256 of each applied file', async () => {
    const { pool } = await freshDatabase();
    expect(await migrate(pool, () => {}, dir)).toEqual(['0001_first.sql', '0002_second.sql']);
    const { rows } = await pool.query('SELECT name, checksum FROM schema_migrations ORDER BY name');
    expect(rows).toEqual([
      { name: '0001_first.sql', checksum: sha256(path.join(dir, '0001_first.sql')) },
      { name: '0002_second.sql', checksum: sha256(path.join(dir, '0002_second.sql')) },
    ]);
    expect(await migrate(pool, () => {}, dir)).toEqual([]);
  });

  it('records the current checksum for rows applied before checksums were kept', async () => {
    const { pool } = await freshDatabase();
    // The table as earlier versions created it: no checksum column.
    await pool.query(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await pool.query('CREATE TABLE first_table (id int)');
    await pool.query(`INSERT INTO schema_migrations (name) VALUES ('0001_first.sql')`);
    expect(await migrate(pool, () => {}, dir)).toEqual(['0002_second.sql']);
    const { rows } = await pool.query(`SELECT checksum FROM schema_migrations WHERE name = '0001_first.sql'`);
    expect(rows[0].checksum).toBe(sha256(path.join(dir, '0001_first.sql')));
  });

  it('refuses to go on when an applied file changed, names it and applies nothing new', async () => {
    const { pool } = await freshDatabase();
    await migrate(pool, () => {}, dir);
    const changed = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-migrations-'));
    fs.copyFileSync(path.join(dir, '0001_first.sql'), path.join(changed, '0001_first.sql'));
    fs.writeFileSync(path.join(changed, '0002_second.sql'), 'CREATE TABLE second_table (id bigint);\n');
    fs.writeFileSync(path.join(changed, '0003_third.sql'), 'CREATE TABLE third_table (id int);\n');
    const failure = await migrate(pool, () => {}, changed).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationChangedError);
    expect((failure as MigrationChangedError).files).toEqual(['0002_second.sql']);
    expect((failure as Error).message).toContain('die Migration 0002_second.sql wurde nach dem Anwenden geändert');
    const { rows } = await pool.query(`SELECT to_regclass('third_table') AS third`);
    expect(rows[0].third).toBeNull();
  });

  it('the committed migrations carry their checksums in a migrated database', async () => {
    const { pool } = await freshDatabase(inject('templateDb'));
    await migrate(pool);
    const { rows } = await pool.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM schema_migrations',
    );
    const files = fs.readdirSync(migrationsDir).filter((f) => /^\d{4}_.+\.sql$/.test(f));
    expect(rows.map((r) => r.name).sort()).toEqual(files.sort());
    for (const row of rows) expect(row.checksum, row.name).toBe(sha256(path.join(migrationsDir, row.name)));
  });

  it('the API does not start on a database where an applied migration differs from its file', async () => {
    const { url, pool } = await freshDatabase(inject('templateDb'));
    await migrate(pool);
    await pool.query(`UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE name = '0004_catalogue.sql'`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-migrate-start-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        PORT: '0',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('die Migration 0004_catalogue.sql wurde nach dem Anwenden geändert');
  }, 60_000);
});
