/**
 * Debian's PostgreSQL server as an independent, real server for a test: initdb in a temporary directory, listening on
 * a loopback port (trust for local connections: the test's own throwaway cluster). Installed with apt-get when
 * missing and the tests run as root; the server runs as the 'postgres' user then (postgres refuses root).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { ensureDebianPackage } from './debian-peers.ts';

const VERSION = 15;
const BIN = `/usr/lib/postgresql/${VERSION}/bin`;
const isRoot = () => process.getuid?.() === 0;

export const debianPostgresUnavailable = () => ensureDebianPackage(`${BIN}/postgres`, 'postgresql');

export interface DebianPostgres {
  url: (database: string) => string;
  createDatabase: (name: string) => Promise<void>;
  stop: () => Promise<void>;
}

export async function startDebianPostgres(): Promise<DebianPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-debian-pg-'));
  const data = path.join(dir, 'data');
  const asServerUser = (command: string, args: string[]) =>
    isRoot() ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args };
  if (isRoot()) {
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres:', dir]);
  }
  const init = asServerUser(`${BIN}/initdb`, [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  execFileSync(init.command, init.args, { stdio: 'ignore' });
  const port = await freePort();
  const server = asServerUser(`${BIN}/postgres`, [
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'max_connections=200',
  ]);
  const child = spawn(server.command, server.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  for (let waited = 0; ; waited += 100) {
    const client = new pg.Client({ connectionString: url('postgres') });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      if (waited > 20_000 || child.exitCode !== null) throw new Error(`Debian PostgreSQL did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}" ENCODING 'UTF8'`);
      await client.end();
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        // pg_ctl as the server's user: runuser does not pass every signal on to the server.
        const stop = asServerUser(`${BIN}/pg_ctl`, ['-D', data, 'stop', '-m', 'fast', '-w']);
        execFileSync(stop.command, stop.args, { stdio: 'ignore' });
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
