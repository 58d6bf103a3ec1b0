import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/config.ts';
import { freePort } from '../support/free-port.ts';

/**
 * `npm start` as an operator runs it: a second instance next to the first, kill -9 of the whole
 * Node process tree, a restart on the same data, SIGTERM. Real processes, real embedded PostgreSQL.
 */
interface Instance {
  child: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

const instances: Instance[] = [];
const dirs: string[] = [];

function start(dataDir: string, env: Record<string, string> = {}): Promise<Instance> {
  return freePort().then((port) => {
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        SKIP_WEB_BUILD: '1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        EMBEDDED_PG_PORT: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const instance = { child, port, dataDir, output: () => output, exited };
    instances.push(instance);
    return instance;
  });
}

async function ready(instance: Instance, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (instance.child.exitCode !== null) throw new Error(`start ended: ${instance.output()}`);
    const ok = await fetch(`http://127.0.0.1:${instance.port}/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`not ready in time: ${instance.output()}`);
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const isPostgres = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function postmaster(dataDir: string) {
  const lines = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

function pgUrl(dataDir: string, password?: string) {
  const secret = password ?? fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(secret)}@127.0.0.1:${postmaster(dataDir).port}/shk_portal`;
}

async function sql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-restart-'));
  // As root, PostgreSQL runs as the OS user 'postgres', which must reach its data directory.
  fs.chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  for (const instance of instances) {
    if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
    await Promise.race([instance.exited, new Promise((r) => setTimeout(r, 30_000))]);
  }
  for (const dir of dirs) {
    const pm = path.join(dir, 'postgres', 'postmaster.pid');
    if (fs.existsSync(pm)) {
      const pid = Number(fs.readFileSync(pm, 'utf8').split('\n')[0]);
      if (alive(pid) && isPostgres(pid)) process.kill(pid, 'SIGQUIT');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);

describe('npm start on one machine', () => {
  it('two instances with their own DATA_DIR run side by side; kill -9 of the tree and a restart work; SIGTERM is clean', async () => {
    const dirA = tempDir();
    const dirB = tempDir();
    const a = await start(dirA);
    const b = await start(dirB);
    await Promise.all([ready(a), ready(b)]);
    expect(postmaster(dirA).port).not.toBe(postmaster(dirB).port);

    // A generated superuser password, owner-only, and the well-known one does not work.
    const secretFile = path.join(dirA, 'postgres.password');
    expect(fs.statSync(secretFile).mode & 0o077).toBe(0);
    expect(fs.readFileSync(secretFile, 'utf8').trim()).not.toBe('postgres');
    await expect(sql(pgUrl(dirA, 'postgres'), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' });
    await sql(pgUrl(dirA), 'CREATE TABLE restart_marker (v text); INSERT INTO restart_marker VALUES ($$kept$$)');

    // kill -9 of every Node process of A (npm start wrapper and API): PostgreSQL is orphaned.
    const orphan = postmaster(dirA).pid;
    const nodePids = [a.child.pid!, ...childrenOf(a.child.pid!)].filter((pid) => !isPostgres(pid));
    for (const pid of nodePids.reverse()) process.kill(pid, 'SIGKILL');
    await a.exited;
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(orphan)).toBe(true);

    const again = await start(dirA);
    await ready(again);
    expect(alive(orphan)).toBe(false);
    expect(await sql(pgUrl(dirA), 'SELECT v FROM restart_marker')).toEqual([{ v: 'kept' }]);
    expect((await fetch(`http://127.0.0.1:${b.port}/ready`)).status).toBe(200);

    // SIGTERM: orderly stop, exit code 0, PostgreSQL stopped, no crash output.
    for (const instance of [again, b]) {
      const pm = postmaster(instance.dataDir).pid;
      instance.child.kill('SIGTERM');
      expect(await instance.exited).toBe(0);
      expect(alive(pm)).toBe(false);
      expect(instance.output()).not.toMatch(/Emitted 'error' event|Unhandled|Connection terminated unexpectedly/);
    }
  }, 300_000);

  it('a busy EMBEDDED_PG_PORT is reported in plain words', async () => {
    const holder = net.createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as net.AddressInfo).port)),
    );
    try {
      const instance = await start(tempDir(), { EMBEDDED_PG_PORT: String(port) });
      expect(await instance.exited).toBe(1);
      expect(instance.output()).toContain(`Port ${port} (EMBEDDED_PG_PORT) ist bereits belegt`);
      expect(instance.output()).not.toMatch(/\bundefined\b/);
    } finally {
      holder.close();
    }
  }, 60_000);
});
