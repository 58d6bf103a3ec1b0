/**
 * What several benches share: CPU time read from /proc, an embedded Postgres with or without pg_stat_statements, and the
 * API started as a bench runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import os from 'node:os';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { ensureDatabase } from '../src/db/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createRuntime } from '../src/runtime.ts';
import { seedDemoWorldIfEmpty } from '../src/seed/demo-world.ts';
import { seedDemoCatalogueIfEmpty } from '../src/seed/catalogue/demo.ts';
import { freePort } from '../test/support/free-port.ts';

/** utime + stime (and with children cutime + cstime) of a process in clock ticks, with its parent (Linux). */
function ticksOf(pid: number | string, withChildren: boolean): { ppid: number; ticks: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(f[1]),
    ticks: Number(f[11]) + Number(f[12]) + (withChildren ? Number(f[13]) + Number(f[14]) : 0),
  };
}

const MS_PER_TICK = 10; // USER_HZ 100

/** CPU milliseconds a process has used so far; NaN when it cannot be read (ended, no /proc). */
export function processCpuMs(pid: number): number {
  try {
    return ticksOf(pid, false).ticks * MS_PER_TICK;
  } catch {
    return NaN;
  }
}

/**
 * CPU milliseconds of the Postgres whose data directory is `pgDataDir`: the postmaster's own and its ended children's,
 * plus the live backends'; NaN when it cannot be read.
 */
export function postgresCpuMs(pgDataDir: string): number {
  try {
    const pid = Number(fs.readFileSync(path.join(pgDataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let total = ticksOf(pid, true).ticks;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const t = ticksOf(entry, false);
        if (t.ppid === pid) total += t.ticks;
      } catch {
        // ended meanwhile
      }
    }
    return total * MS_PER_TICK;
  } catch {
    return NaN;
  }
}

/**
 * The embedded Postgres of a bench. pgStats: pg_stat_statements loaded (BENCH_PG_STATS=1: statements per call and
 * the costliest statements); without it the library is unloaded again, so a reused data directory does not keep
 * costing the figures. Restarts the server only when that setting changes.
 */
export async function startBenchPostgres(
  pgDataDir: string,
  port: number | undefined,
  options: { pgStats: boolean; durable?: boolean },
): Promise<EmbeddedDatabase> {
  const start = () => startEmbeddedPostgres(pgDataDir, port, { durable: options.durable ?? true });
  const server = await start();
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  try {
    const loaded = (
      await admin.query<{ l: string }>(`SELECT current_setting('shared_preload_libraries') AS l`)
    ).rows[0].l.includes('pg_stat_statements');
    if (loaded === options.pgStats) return server;
    if (options.pgStats) {
      await admin.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
      await admin.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
    } else await admin.query('ALTER SYSTEM RESET shared_preload_libraries');
  } finally {
    await admin.end();
  }
  await server.stop();
  return start();
}

/**
 * The API as a bench runs it in its own process: a durable embedded Postgres in a temporary directory, the demo world
 * and a demo catalogue of `products`, listening on a free loopback port. `close()` stops both and removes the directory.
 */
export async function startBenchApi(name: string, products: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shk-bench-${name}-`));
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, 'pg'), undefined, { durable: true });
  await ensureDatabase(server.url('postgres'), 'bench');
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dir, 'none'),
  });
  const runtime = await createRuntime(config, server.url('bench'), {
    logger: false,
    log: { info() {}, warn() {}, error() {} } as unknown as Console,
  });
  await seedDemoWorldIfEmpty(runtime.db);
  await seedDemoCatalogueIfEmpty(runtime.db, () => {}, products);
  return {
    config,
    runtime,
    listen: () => runtime.app.listen({ port, host: '127.0.0.1' }),
    async close() {
      await runtime.close();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
