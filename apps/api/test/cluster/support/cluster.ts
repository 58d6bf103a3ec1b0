/**
 * A real cluster on loopback, shared by `npm run test:cluster` (apps/api/test/cluster) and `npm run bench:load`
 * (BENCH_CLUSTER=1|2): Debian's PostgreSQL 15 server (initdb into a temporary directory, run as the `postgres`
 * user when we are root — the server refuses to run as root), N API nodes started the way `npm start` runs them
 * (`node apps/api/dist/main.js`, compiled by scripts/build-api.mjs when stale) with DATABASE_URL pointing at it and a
 * DATA_DIR and port of their own, and haproxy in front, checking /ready on each node.
 *
 * Missing packages are installed with apt-get when running as root; otherwise `clusterUnavailable()` names what is
 * missing and the callers skip with that message.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureApiBuild } from '../../../../../scripts/build-api.mjs';
import { freePort } from '../../support/free-port.ts';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const HAPROXY = '/usr/sbin/haproxy';
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');

/** Why the cluster cannot be started here (null: it can), after installing what is missing when root. */
export function clusterUnavailable(): string | null {
  const missing = () =>
    [
      ...(fs.existsSync(path.join(PG_BIN, 'postgres')) ? [] : ['postgresql']),
      ...(fs.existsSync(HAPROXY) ? [] : ['haproxy']),
    ] as string[];
  let pkgs = missing();
  if (pkgs.length && process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs], { stdio: 'inherit', env });
    pkgs = missing();
  }
  if (!pkgs.length) return null;
  return (
    `Debians Pakete ${pkgs.join(', ')} fehlen und dieser Prozess läuft nicht als root – Clustertest übersprungen. ` +
    `Einmal installieren: sudo apt-get install -y ${pkgs.join(' ')}`
  );
}

export interface ClusterNode {
  name: string;
  port: number;
  url: string;
  dataDir: string;
  process: ChildProcess | null;
  /** Last lines the node wrote to stderr/stdout (shown when it fails to start). */
  output: string[];
}

export interface Cluster {
  /** haproxy's address: the portal's PUBLIC_URL. */
  url: string;
  databaseUrl: string;
  nodes: ClusterNode[];
  pool: pg.Pool;
  /** Starts a node (again); `viaNpmStart`: through scripts/start.mjs (`npm start`) instead of the compiled entry. */
  start(node: ClusterNode, options?: { viaNpmStart?: boolean }): Promise<void>;
  /** A further node on the same database, not behind haproxy (not started). */
  extraNode(): Promise<ClusterNode>;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(node: ClusterNode): Promise<number | null>;
  /** kill -9. */
  kill(node: ClusterNode): Promise<void>;
  /** Waits until haproxy sees the node as up (or down), read from haproxy's stats. */
  waitForBalancer(node: ClusterNode, up: boolean, timeoutMs?: number): Promise<void>;
  /** Resident memory of each node in MiB (from /proc). */
  memory(): Record<string, number>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  nodes?: number;
  /** Environment of every node on top of the harness's own. */
  env?: Record<string, string>;
  /** Products of the demo catalogue (small: the test's start must stay quick). */
  products?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The uid/gid of Debian's postgres user when we are root (the server refuses to run as root). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('user postgres missing (Debian package postgresql)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function startPostgres(dir: string): Promise<{ url: (db: string) => string; stop: () => Promise<void> }> {
  const user = serverUser();
  const data = path.join(dir, 'pg');
  fs.mkdirSync(data, { recursive: true });
  if (user) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(data, user.uid, user.gid);
  }
  const init = spawnSync(
    path.join(PG_BIN, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'],
    { ...(user ?? {}), encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const server = spawn(
    path.join(PG_BIN, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      data,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'shared_buffers=256MB',
    ],
    { ...(user ?? {}), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  await waitFor(
    async () => {
      if (server.exitCode !== null) throw new Error(`postgres exited: ${log}`);
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      await client.end();
      return true;
    },
    30_000,
    'PostgreSQL start',
  );
  return {
    url,
    stop: async () => {
      if (server.exitCode !== null) return;
      server.kill('SIGINT'); // fast shutdown
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

function haproxyConfig(port: number, statsPort: number, nodes: ClusterNode[]): string {
  return `global
  maxconn 4000
defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 10s
  option http-server-close
  retries 3
  option redispatch 1
  # A request that never reached a node (refused connection) is sent to the other; so is a GET a stopping node
  # answered 503 or dropped. Writes are not replayed: a checkout the dead node may have committed is not repeated.
  retry-on conn-failure empty-response 503
listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
frontend portal
  bind 127.0.0.1:${port}
  http-request disable-l7-retry if !METH_GET !METH_HEAD
  default_backend api
backend api
  balance roundrobin
  option httpchk GET /ready
  http-check expect status 200
  # A check waits up to 3 s for /ready (a busy node on a busy machine is slow, not gone); a dead node refuses the
  # connection at once, so three failed checks 250 ms apart take it out within about 0.75 s.
  timeout check 3s
  default-server inter 250ms fastinter 250ms downinter 250ms fall 3 rise 2
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join('\n')}
`;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 2;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-cluster-'));
  fs.chmodSync(dir, 0o755);
  const server = await startPostgres(dir);
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE portal');
  await admin.end();
  const databaseUrl = server.url('portal');
  await ensureApiBuild();

  const lbPort = await freePort();
  const url = `http://127.0.0.1:${lbPort}`;
  const nodes: ClusterNode[] = [];
  const makeNode = async (i: number): Promise<ClusterNode> => {
    const port = await freePort();
    const dataDir = path.join(dir, `node-${String.fromCharCode(97 + i)}`);
    fs.mkdirSync(dataDir);
    return {
      name: String.fromCharCode(97 + i),
      port,
      url: `http://127.0.0.1:${port}`,
      dataDir,
      process: null,
      output: [],
    };
  };

  for (let i = 0; i < count; i++) nodes.push(await makeNode(i));

  const start = async (node: ClusterNode, startOptions: { viaNpmStart?: boolean } = {}) => {
    const entry = startOptions.viaNpmStart ? 'scripts/start.mjs' : 'apps/api/dist/main.js';
    const child = spawn(process.execPath, [entry], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? dir,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        PORT: String(node.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: node.dataDir,
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: path.join(dir, 'no-web'),
        SEED_DEMO: 'true',
        DEMO_CATALOGUE_PRODUCTS: String(options.products ?? 2_000),
        SHUTDOWN_READY_DELAY_MS: '3000',
        // A dead node's transmissions are claimed again after the lease (production: 120 s).
        TRANSMISSION_LEASE_MS: '10000',
        SKIP_WEB_BUILD: '1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    node.process = child;
    node.output = [];
    const keep = (d: Buffer) => {
      node.output.push(...d.toString().split('\n').filter(Boolean));
      if (node.output.length > 60) node.output.splice(0, node.output.length - 60);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
          return (await fetch(`${node.url}/ready`)).ok;
        },
        240_000,
        `node ${node.name}`,
      );
    } catch (error) {
      throw new Error(`node ${node.name} did not start: ${(error as Error).message}\n${node.output.join('\n')}`);
    }
  };

  const exited = (node: ClusterNode) =>
    new Promise<number | null>((resolve) => {
      const child = node.process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve(child?.exitCode ?? null);
      child.once('exit', (code) => resolve(code));
    });

  // The first node migrates and seeds alone; the others start on the prepared database together.
  await start(nodes[0]);
  await Promise.all(nodes.slice(1).map((node) => start(node)));

  const cfg = path.join(dir, 'haproxy.cfg');
  const statsPort = await freePort();
  fs.writeFileSync(cfg, haproxyConfig(lbPort, statsPort, nodes));
  const haproxy = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let haproxyLog = '';
  haproxy.stderr!.on('data', (d: Buffer) => (haproxyLog = (haproxyLog + d.toString()).slice(-4000)));
  await waitFor(
    async () => {
      if (haproxy.exitCode !== null) throw new Error(`haproxy exited: ${haproxyLog}`);
      return (await fetch(`${url}/ready`)).ok;
    },
    15_000,
    'haproxy',
  );
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  let extras = 0;

  // haproxy's own view of a node: its status in the stats CSV (column 18: UP, DOWN, NOLB, "UP 1/2"…).
  const balancerStatus = async (node: ClusterNode) => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const row = csv.split('\n').find((line) => line.startsWith(`api,${node.name},`));
    return row?.split(',')[17] ?? '';
  };
  const waitForBalancer = async (node: ClusterNode, up: boolean, timeoutMs = 20_000) => {
    await waitFor(
      async () => (up ? (await balancerStatus(node)) === 'UP' : (await balancerStatus(node)).startsWith('DOWN')),
      timeoutMs,
      `haproxy: node ${node.name} ${up ? 'up' : 'down'}`,
    );
  };

  return {
    url,
    databaseUrl,
    nodes,
    pool,
    start,
    extraNode: () => makeNode(nodes.length + extras++),
    stop: async (node) => {
      node.process?.kill('SIGTERM');
      return exited(node);
    },
    kill: async (node) => {
      node.process?.kill('SIGKILL');
      await exited(node);
    },
    waitForBalancer,
    memory: () =>
      Object.fromEntries(
        nodes.map((n) => {
          try {
            const status = fs.readFileSync(`/proc/${n.process?.pid}/status`, 'utf8');
            const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
            return [n.name, Math.round(kb / 1024)];
          } catch {
            return [n.name, 0];
          }
        }),
      ),
    close: async () => {
      await pool.end().catch(() => {});
      haproxy.kill('SIGTERM');
      for (const node of nodes) if (node.process && node.process.exitCode === null) node.process.kill('SIGKILL');
      await Promise.all(nodes.map(exited));
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
