#!/usr/bin/env node
/**
 * Browser end-to-end tests against the real server:
 *   1. builds the SPA when apps/web/dist is missing or older than its sources,
 *   2. starts ONE server (`npx tsx apps/api/src/main.ts`) with a fresh temporary DATA_DIR (own embedded
 *      PostgreSQL, seeded demo world) on free ports, serving a private copy of the build (WEB_DIST_DIR), so
 *      that a rebuild by someone else during the run cannot pull the files away under the browser,
 *   3. waits for /ready, runs `npx playwright test` with BASE_URL (extra arguments are passed on),
 *   4. stops the server with SIGINT and exits with Playwright's exit code.
 * Server output goes to test-results/e2e-server.log.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[e2e] ${message}`);

/** Newest modification time below a path (files only). */
function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function ensureWebBuild() {
  const builtAt = newestMtime(path.join(root, 'apps/web/dist/index.html'));
  const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contracts/src'];
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (builtAt && builtAt >= changedAt) {
    log('SPA build is up to date');
    return;
  }
  log('building the SPA …');
  const result = spawnSync('npm', ['run', 'build', '-w', '@shk/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('SPA build failed');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(url, server, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited early with code ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`server not ready after ${timeoutMs / 1000} s`);
}

/**
 * SIGINT to the server's process group, like Ctrl-C in a terminal (`npm exec` does not pass signals on);
 * the server then stops PostgreSQL cleanly. SIGKILL only if it hangs.
 */
function stopServer(server) {
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      server.kill(signal);
    }
  };
  // npm may exit before the server has stopped PostgreSQL: wait until the whole group is gone.
  const groupAlive = () => {
    try {
      process.kill(-server.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return new Promise((resolve) => {
    const deadline = Date.now() + 20_000;
    let killed = false;
    const poll = setInterval(() => {
      if (!groupAlive()) {
        clearInterval(poll);
        resolve();
      } else if (!killed && Date.now() > deadline) {
        killed = true;
        log('server did not stop, killing it');
        signalGroup('SIGKILL');
      }
    }, 200);
    signalGroup('SIGINT');
  });
}

async function main() {
  ensureWebBuild();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-e2e-'));
  // As root the embedded PostgreSQL runs as the 'postgres' OS user, which must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755);
  const webDistDir = path.join(dataDir, 'web');
  fs.cpSync(path.join(root, 'apps/web/dist'), webDistDir, { recursive: true });
  const [port, pgPort] = [await freePort(), await freePort()];
  const baseUrl = `http://localhost:${port}`;
  const resultsDir = path.join(root, 'test-results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const serverLog = fs.openSync(path.join(resultsDir, 'e2e-server.log'), 'w');

  log(`starting server on ${baseUrl} (data in ${dataDir})`);
  const server = spawn('npx', ['tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    // Own process group, so a hanging server can be killed with all its children.
    detached: true,
    stdio: ['ignore', serverLog, serverLog],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: webDistDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      PUBLIC_URL: baseUrl,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: '',
      OIDC_ISSUER: '',
      SEED_DEMO: 'true',
    },
  });

  let exitCode = 1;
  const onSignal = async () => {
    await stopServer(server);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    await waitForReady(`${baseUrl}/ready`, server, 180_000);
    log('server ready, running Playwright');
    const playwright = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BASE_URL: baseUrl, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    exitCode = await new Promise((resolve) => playwright.on('exit', (code) => resolve(code ?? 1)));
  } catch (error) {
    console.error(`[e2e] ${error.message} – see test-results/e2e-server.log`);
  } finally {
    log('stopping server');
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main();
