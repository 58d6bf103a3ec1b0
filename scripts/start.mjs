#!/usr/bin/env node
// `npm start`: builds the SPA and compiles the API (apps/api/dist, scripts/build-api.mjs) when missing or
// stale, then runs the API (which serves the SPA, the identity provider and /v1 on PORT). Ctrl-C / SIGTERM
// are forwarded so Postgres stops cleanly.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApiBuild, newestMtime } from './build-api.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const warn = (message) => console.warn(`\x1b[33m[start] ${message}\x1b[0m`);
const info = (message) => console.log(`[start] ${message}`);

if (!fs.existsSync(bin('tsx'))) {
  console.error('[start] node_modules fehlt – bitte zuerst `npm install` ausführen.');
  process.exit(1);
}

function buildSpaIfNeeded() {
  if (process.env.SKIP_WEB_BUILD === '1' || process.env.SKIP_WEB_BUILD === 'true') {
    info('SKIP_WEB_BUILD gesetzt – die Oberfläche wird nicht gebaut.');
    return;
  }
  if (process.env.WEB_DIST_DIR) {
    info(`WEB_DIST_DIR=${process.env.WEB_DIST_DIR} – die Oberfläche wird von dort ausgeliefert, nicht neu gebaut.`);
    return;
  }
  const web = path.join(root, 'apps/web');
  const pkgFile = path.join(web, 'package.json');
  const pkg = fs.existsSync(pkgFile) ? JSON.parse(fs.readFileSync(pkgFile, 'utf8')) : null;
  if (!pkg?.scripts?.build || !fs.existsSync(path.join(web, 'index.html'))) {
    warn('apps/web ist (noch) nicht baubar (kein index.html oder build-Skript) – starte nur API und Anmeldung.');
    return;
  }
  const builtAt = newestMtime(path.join(web, 'dist', 'index.html'));
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'packages/contracts/src',
  ];
  const changedAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (builtAt && builtAt >= changedAt) {
    info('Oberfläche ist aktuell (apps/web/dist).');
    return;
  }
  info(builtAt ? 'Oberfläche ist veraltet – baue neu …' : 'Oberfläche noch nicht gebaut – baue …');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '-w', '@shk/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    warn(
      `Build der Oberfläche fehlgeschlagen (Exit ${result.status ?? result.signal}) – starte trotzdem die API${fs.existsSync(path.join(web, 'dist', 'index.html')) ? ' mit dem alten Build' : ''}.`,
    );
  }
}

buildSpaIfNeeded();

// The API runs as compiled JavaScript: without the TypeScript loader (tsx keeps a loader thread and every
// module's source and transform) it rests at ~140 instead of ~230 MB RSS (measured when the build came in; git history of docs/performance.md).
// API_FROM_SOURCE=1 runs apps/api/src through tsx instead (no build step).
const fromSource = process.env.API_FROM_SOURCE === '1' || process.env.API_FROM_SOURCE === 'true';
if (!fromSource) {
  try {
    if (!(await ensureApiBuild(info))) info('API ist aktuell (apps/api/dist).');
  } catch (error) {
    console.error(`[start] Kompilieren der API fehlgeschlagen: ${error.message}`);
    process.exit(1);
  }
}

// `node` directly rather than the tsx CLI: one process, so a signal reaches the API's own shutdown
// handler directly (the CLI's relay falls back to SIGKILL when the child is slow to acknowledge,
// which would leave the embedded Postgres running).
const entry = fromSource ? ['--import', 'tsx', 'apps/api/src/main.ts'] : ['apps/api/dist/main.js'];
const child = spawn(process.execPath, entry, {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

// Ctrl-C in a terminal reaches the whole process group; a SIGTERM (docker, systemd, CI) only us.
// Either way the API gets exactly the signal and shuts down itself (and the embedded Postgres).
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    signals += 1;
    if (signals >= 3) {
      warn('Erzwungenes Beenden.');
      child.kill('SIGKILL');
      return;
    }
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

// `npm start` does not always pass a SIGTERM on (npm itself may just exit): when whoever started us is
// gone, stop the API as if we had been told to, instead of leaving it and Postgres running as orphans.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid && child.exitCode === null && child.signalCode === null && signals === 0) {
    warn('Elternprozess beendet – stoppe die API.');
    signals += 1;
    child.kill('SIGTERM');
  }
}, 1000).unref();

child.on('error', (error) => {
  console.error(`[start] API konnte nicht gestartet werden: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1) : 1));
});
