#!/usr/bin/env node
/**
 * Browser end-to-end tests against the real server:
 *   1. uses apps/web/dist, or builds the SPA into the run's own folder when dist is missing or stale,
 *   2. starts ONE server (`node apps/api/dist/main.js`, compiled when stale as by `npm start`) with a fresh
 *      temporary DATA_DIR (own embedded PostgreSQL, seeded demo world) on free ports, serving a private copy of the build (WEB_DIST_DIR), so
 *      that a rebuild by someone else during the run cannot pull the files away under the browser,
 *   3. waits for /ready, runs `npx playwright test` with BASE_URL (extra arguments are passed on),
 *   4. stops the server with SIGINT and exits with Playwright's exit code.
 * Every run is isolated from concurrent runs in the same tree: its own server, stored sessions
 * (E2E_AUTH_DIR) and result folder test-results/e2e-<pid>/ (server.log, Playwright artifacts), which is
 * removed again when all tests passed.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApiBuild } from './build-api.mjs';

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

/**
 * Puts a current SPA build into `targetDir`: a copy of apps/web/dist when that is newer than the sources,
 * otherwise a fresh build straight into `targetDir` (never into the shared dist, which a concurrent run or
 * `npm start` may be reading).
 */
function prepareWebBuild(targetDir) {
  const distDir = path.join(root, 'apps/web/dist');
  const builtAt = newestMtime(path.join(distDir, 'index.html'));
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'packages/contracts/src',
  ];
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (builtAt && builtAt >= changedAt) {
    log('SPA build is up to date');
    fs.cpSync(distDir, targetDir, { recursive: true });
    return;
  }
  log('building the SPA …');
  const result = spawnSync(
    'npm',
    ['run', 'build', '-w', '@shk/web', '--', '--outDir', targetDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
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

function startServer({ dataDir, webDistDir, port, pgPort, baseUrl, logFile }) {
  return spawn(process.execPath, ['apps/api/dist/main.js'], {
    cwd: root,
    // Own process group: stopped like Ctrl-C stops it in a terminal, and killable with all its children.
    detached: true,
    stdio: ['ignore', logFile, logFile],
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
      // Short transmission retries: a supplier channel that is down reaches SendingFailed within a test.
      TRANSMISSION_MAX_ATTEMPTS: process.env.TRANSMISSION_MAX_ATTEMPTS ?? '2',
      TRANSMISSION_RETRY_BASE_MS: process.env.TRANSMISSION_RETRY_BASE_MS ?? '500',
      // Supplier peers the specs start run on loopback, an internal address the operator allowlist must name.
      TRANSMISSION_ALLOWED_HOSTS: process.env.TRANSMISSION_ALLOWED_HOSTS ?? '127.0.0.1',
    },
  });
}

function runPlaywright({ baseUrl, runDir, dataDir }) {
  const playwright = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      BASE_URL: baseUrl,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      E2E_OUTPUT_DIR: path.join(runDir, 'playwright'),
      E2E_AUTH_DIR: path.join(dataDir, 'auth'),
    },
  });
  return new Promise((resolve) => playwright.on('exit', (code) => resolve(code ?? 1)));
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-e2e-'));
  // As root the embedded PostgreSQL runs as the 'postgres' OS user, which must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755);
  const runDir = path.join(root, 'test-results', `e2e-${process.pid}`);
  fs.mkdirSync(runDir, { recursive: true });
  const serverLogPath = path.join(runDir, 'server.log');

  let server = null;
  let exitCode = 1;
  const cleanUp = async () => {
    if (server) {
      log('stopping server');
      await stopServer(server);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (exitCode === 0) fs.rmSync(runDir, { recursive: true, force: true });
    else log(`server log and test artifacts: ${path.relative(root, runDir)}`);
  };
  const onSignal = async () => {
    exitCode = 130;
    await cleanUp();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const webDistDir = path.join(dataDir, 'web');
    prepareWebBuild(webDistDir);
    await ensureApiBuild(log);
    const [port, pgPort] = [await freePort(), await freePort()];
    const baseUrl = `http://localhost:${port}`;
    log(`starting server on ${baseUrl} (data in ${dataDir})`);
    server = startServer({ dataDir, webDistDir, port, pgPort, baseUrl, logFile: fs.openSync(serverLogPath, 'w') });
    await waitForReady(`${baseUrl}/ready`, server, 180_000);
    log('server ready, running Playwright');
    exitCode = await runPlaywright({ baseUrl, runDir, dataDir });
  } catch (error) {
    console.error(`[e2e] ${error.message} – see ${path.relative(root, serverLogPath)}`);
  } finally {
    await cleanUp();
  }
  process.exit(exitCode);
}

await main();
