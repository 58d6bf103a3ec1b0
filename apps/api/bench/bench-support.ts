/**
 * What the benches share: CPU time read from /proc, an embedded Postgres with or without pg_stat_statements, the API
 * started in the bench's process on a fresh database (startBenchApi), a database kept between runs
 * (openBenchDatabase) and the API as a process of its own (startApiProcess).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { ensureDatabase, EMBEDDED_DATABASE } from '../src/db/bootstrap.ts';
import { createDb, createPool } from '../src/db/pool.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureFeatureSettings } from '../src/modules/settings/index.ts';
import { ensureApiBuild } from '../../../scripts/build-api.mjs';
import { loadConfig } from '../src/config.ts';
import { createRuntime } from '../src/runtime.ts';
import { seedDemoWorldIfEmpty } from '../src/seed/demo-world.ts';
import { seedDemoCatalogueIfEmpty } from '../src/seed/catalogue/demo.ts';
import { loadCatalogue } from '../src/seed/catalogue/load.ts';
import { freePort } from '../test/support/free-port.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';

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

/** Peak resident memory of a process over its life in MB (VmHWM); NaN when it cannot be read (ended, no /proc). */
export function processPeakRssMb(pid: number): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : NaN;
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

export interface BenchApiOptions {
  /** A demo catalogue of this many products beside the demo world (none: the demo world alone). */
  products?: number;
  /** Settings beside the bench's own (port, data directory, no SPA, LOG_LEVEL=warn). */
  env?: Record<string, string>;
  /** The bench process's environment under the bench's own settings (TRANSMISSION_*, AS2_* of a run). */
  processEnv?: boolean;
  /** pg_stat_statements loaded (startBenchPostgres; BENCH_PG_STATS=1 in the benches that read statements). */
  pgStats?: boolean;
}

/**
 * The API as a bench runs it in its own process: a durable embedded Postgres in a temporary directory, the demo world
 * (and a demo catalogue of `products`), on a free loopback port once `listen()` is called. `login()` signs a demo user
 * in through the real OIDC flow; `close()` stops both and removes the directory.
 */
export async function startBenchApi(name: string, options: BenchApiOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shk-bench-${name}-`));
  fs.chmodSync(dir, 0o755);
  const server = await startBenchPostgres(path.join(dir, 'pg'), undefined, { pgStats: options.pgStats ?? false });
  await ensureDatabase(server.url('postgres'), 'bench');
  const port = await freePort();
  const config = loadConfig({
    ...(options.processEnv ? process.env : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dir, 'none'),
    ...options.env,
  });
  const runtime = await createRuntime(config, server.url('bench'), {
    logger: false,
    log: { info() {}, warn() {}, error() {} } as unknown as Console,
  });
  await seedDemoWorldIfEmpty(runtime.db);
  if (options.products) await seedDemoCatalogueIfEmpty(runtime.db, () => {}, options.products);
  let apiStopped: Promise<void> | null = null;
  const stopApi = () => (apiStopped ??= runtime.close());
  return {
    dir,
    server,
    port,
    config,
    runtime,
    pool: runtime.pool,
    databaseUrl: server.url('bench'),
    listen: () => runtime.app.listen({ port, host: '127.0.0.1' }),
    /** An access token of a demo or bench user (password "demo"), through the real login flow. */
    login: async (email: string) => (await loginWithCodeFlow(config.publicUrl, email)).access_token,
    /** Stops the API (not Postgres): for benches that run the API in a process of their own afterwards. */
    stopApi,
    async close() {
      await stopApi();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The database of a bench that keeps its data between runs (BENCH_DATA_DIR, a fixed BENCH_PG_PORT): migrated, with
 * the feature settings and the demo world. `keepIf`: the data directory is removed first unless its file `file` holds
 * `content` (the shape of the data the bench seeded last time; the bench writes it once it has seeded).
 */
export async function openBenchDatabase(
  dataDir: string,
  options: { pgPort: number; pgStats?: boolean; poolSize?: number; keepIf?: { file: string; content: string } },
) {
  const { keepIf } = options;
  if (
    keepIf &&
    fs.existsSync(dataDir) &&
    (!fs.existsSync(keepIf.file) || fs.readFileSync(keepIf.file, 'utf8').trim() !== keepIf.content)
  )
    fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  const server = await startBenchPostgres(path.join(dataDir, 'postgres'), options.pgPort, {
    pgStats: options.pgStats ?? false,
  });
  await ensureDatabase(server.url('postgres'), EMBEDDED_DATABASE);
  const databaseUrl = server.url(EMBEDDED_DATABASE);
  const pool = createPool(databaseUrl, options.poolSize ?? 4);
  pool.on('error', () => {}); // idle connections end with the server at the very end
  const db = createDb(pool);
  await migrate(pool);
  await ensureFeatureSettings(db);
  await seedDemoWorldIfEmpty(db);
  return { server, databaseUrl, pool, db };
}

/** Loads the generated catalogue of `products` unless the database already holds exactly that many (a kept BENCH_DATA_DIR). */
export async function ensureBenchCatalogue(pool: pg.Pool, products: number) {
  const { rows } = await pool.query<{ products: number; loaded: boolean }>(
    'SELECT products, loaded_at IS NOT NULL AS loaded FROM catalogue_state',
  );
  if (rows[0].loaded && rows[0].products === products) return;
  const started = performance.now();
  await loadCatalogue(pool, { products, log: (m) => console.log(m) });
  console.log(
    `load: ${products.toLocaleString('de-DE')} products in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The API (or `npm run worker`) as a process of its own, as `npm start` runs it: compiled to apps/api/dist, or through
 * tsx with BENCH_API=tsx. Loopback, LOG_LEVEL=warn, no SPA, no demo seeding, then `env`; resolves once /health answers
 * (the worker: once it prints 'ready').
 */
export async function startApiProcess(options: {
  env: Record<string, string>;
  /** The port /health is asked on (the API's PORT). */
  port?: number;
  entry?: 'main' | 'worker';
  /** Node options before the entry (--cpu-prof …). */
  nodeArgs?: string[];
  stdout?: 'ignore' | 'pipe';
  timeoutMs?: number;
}): Promise<ChildProcess> {
  const viaTsx = process.env.BENCH_API === 'tsx';
  const entry = options.entry ?? 'main';
  if (!viaTsx && (await ensureApiBuild())) console.log('API compiled to apps/api/dist');
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(viaTsx ? ['--import', 'tsx', `apps/api/src/${entry}.ts`] : [`apps/api/dist/${entry}.js`]),
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: '/nonexistent',
        SEED_DEMO: 'false',
        ...(options.port ? { PORT: String(options.port) } : {}),
        ...options.env,
      },
      stdio: ['ignore', entry === 'worker' ? 'pipe' : (options.stdout ?? 'ignore'), 'inherit'],
    },
  );
  if (entry === 'worker') {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
    return child;
  }
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${options.port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('API did not start');
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Stops a process startApiProcess started (SIGTERM: the API's orderly shutdown) and waits for it. */
export async function stopApiProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
