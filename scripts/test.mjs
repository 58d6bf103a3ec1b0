#!/usr/bin/env node
// `npm test`: Chromium check, typecheck (tsc -b), lint (ESLint + boundaries, Prettier), API/unit tests (vitest),
// the cluster tests (npm run test:cluster), browser tests (scripts/e2e.mjs).
// Every step runs even when an earlier one failed; the last line is the plain summary
// 'N passed, N failed' (vitest + Playwright; a failed typecheck, a failed lint check or a crashed step counts as
// one failure).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { aptInstall } from './lib/apt.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const resultsDir = path.join(root, '.tmp', 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });

const CHROMIUM = '/usr/lib/chromium/chromium';
const MINUTE = 60_000;
const totals = { passed: 0, failed: 0, skipped: 0 };
const steps = [];
const stripAnsi = stripVTControlCharacters;

function heading(title) {
  console.log(`\n\x1b[1m=== ${title} ===\x1b[0m`);
}

let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current && current.exitCode === null) {
      try {
        process.kill(-current.pid, signal);
      } catch {
        current.kill(signal);
      }
    }
    process.exit(130);
  });
}

/**
 * Runs a command in its own process group (so a timeout can stop everything it started),
 * mirroring its output and returning it for parsing.
 */
function run(command, args, { timeoutMs, env = {} } = {}) {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child;
    const mirror = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        target.write(chunk);
      });
    mirror(child.stdout, process.stdout);
    mirror(child.stderr, process.stderr);
    const timer =
      timeoutMs &&
      setTimeout(() => {
        timedOut = true;
        console.error(
          `\n[test] ${path.basename(command)} läuft länger als ${Math.round(timeoutMs / MINUTE)} min – abgebrochen.`,
        );
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 10_000).unref();
      }, timeoutMs);
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      current = null;
      resolve({ code: code ?? (signal ? 1 : 0), output: stripAnsi(output), timedOut });
    });
  });
}

function record(name, ok, detail) {
  steps.push({ name, ok, detail });
}

// 1. Chromium for the browser tests (Debian's package; Playwright's own download is not used).
function ensureChromium() {
  heading('Chromium');
  if (fs.existsSync(CHROMIUM)) {
    console.log(`${CHROMIUM} vorhanden.`);
    return true;
  }
  const e2ePresent = fs.existsSync(path.join(root, 'scripts', 'e2e.mjs'));
  if (process.getuid?.() === 0) {
    console.log('Chromium fehlt – installiere Debians Paket chromium (apt-get) …');
    if (aptInstall(['chromium']) && fs.existsSync(CHROMIUM)) return true;
    console.error(`[test] Chromium konnte nicht installiert werden (${CHROMIUM} fehlt).`);
  } else {
    console.error(
      `[test] ${CHROMIUM} fehlt und dieser Prozess läuft nicht als root. Bitte einmal installieren:\n` +
        '         sudo apt-get update && sudo apt-get install -y chromium',
    );
  }
  if (!e2ePresent) {
    console.warn('[test] Ohne scripts/e2e.mjs wird Chromium nicht gebraucht – weiter.');
    return true;
  }
  record('chromium', false, 'Chromium fehlt');
  totals.failed += 1;
  return false;
}

// 1b. xmllint for the IDS-Connect tests (returned carts are validated against the norm's XSDs).
function ensureXmllint() {
  heading('xmllint');
  const found = spawnSync('xmllint', ['--version'], { stdio: 'ignore' });
  if (found.status === 0) {
    console.log('xmllint vorhanden.');
    return;
  }
  if (process.getuid?.() === 0) {
    console.log('xmllint fehlt – installiere Debians Paket libxml2-utils (apt-get) …');
    if (aptInstall(['libxml2-utils'])) return;
  }
  console.error('[test] xmllint fehlt. Bitte einmal installieren: sudo apt-get install -y libxml2-utils');
  record('xmllint', false, 'xmllint fehlt');
  totals.failed += 1;
}

// 1c. Debian tools the API tests use as independent partner systems, installed once before vitest (two test
// workers installing at the same time would fight over dpkg's lock): pdftotext (order PDFs read back as text),
// openssl (the AS2 partner's cms), sshd and vsftpd (SFTP/FTP suppliers), Business::Edifact::Interchange (the
// second EDIFACT parser), zip (zip bombs for the catalogue import).
const TEST_TOOLS = [
  ['pdftotext', () => spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0, 'poppler-utils'],
  ['openssl', () => spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0, 'openssl'],
  ['sshd', () => fs.existsSync('/usr/sbin/sshd'), 'openssh-server'],
  ['vsftpd', () => fs.existsSync('/usr/sbin/vsftpd'), 'vsftpd'],
  [
    'Business::Edifact::Interchange',
    () => fs.existsSync('/usr/share/perl5/Business/Edifact/Interchange.pm'),
    'libbusiness-edifact-interchange-perl',
  ],
  ['zip', () => spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0, 'zip'],
];

function ensureTransmissionTools() {
  heading('Partnerwerkzeuge für die Tests');
  const missing = TEST_TOOLS.filter(([tool, present]) => {
    if (present()) console.log(`${tool} vorhanden.`);
    return !present();
  });
  if (missing.length && process.getuid?.() === 0) {
    const pkgs = missing.map(([, , pkg]) => pkg);
    console.log(`Installiere Debians Pakete ${pkgs.join(', ')} (apt-get) …`);
    aptInstall(pkgs);
  }
  for (const [tool, present, pkg] of missing) {
    if (present()) continue;
    console.error(`[test] ${tool} fehlt. Bitte einmal installieren: sudo apt-get install -y ${pkg}`);
    record(tool, false, `${tool} fehlt`);
    totals.failed += 1;
  }
}

// 2. Typecheck of all workspaces.
async function typecheck() {
  heading('Typecheck (tsc -b)');
  const { code, output, timedOut } = await run(bin('tsc'), ['-b'], { timeoutMs: 10 * MINUTE });
  if (code === 0) {
    console.log('Typecheck ohne Fehler.');
    record('typecheck', true);
    return;
  }
  const files = [
    ...new Set(
      [...output.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((m) => m[1].split('/').slice(0, 2).join('/')),
    ),
  ];
  record('typecheck', false, timedOut ? 'Zeitüberschreitung' : `Fehler in ${files.join(', ') || 'tsc'}`);
  totals.failed += 1;
}

// 3. House rules: ESLint with the boundary rules (eslint.config.js), Prettier's format check and no import loops in
// the API (scripts/check-cycles.mjs), no dead code (knip, knip.jsonc).
async function lint() {
  heading('Lint (ESLint + Grenzen, Prettier, Importschleifen, toter Code)');
  for (const [name, command, args] of [
    ['eslint', bin('eslint'), ['.']],
    ['prettier', bin('prettier'), ['--check', '.']],
    ['import-loops', process.execPath, ['scripts/check-cycles.mjs']],
    ['knip', bin('knip'), ['--no-progress']],
  ]) {
    const { code, timedOut } = await run(command, args, { timeoutMs: 10 * MINUTE });
    if (code === 0) console.log(`${name} ohne Befund.`);
    record(name, code === 0, code === 0 ? undefined : timedOut ? 'Zeitüberschreitung' : 'Befunde (siehe oben)');
    if (code !== 0) totals.failed += 1;
  }
}

/**
 * One vitest run with its JSON report: adds its counts to the totals and records the step. A file that fails to
 * load has no failing test of its own; it counts as one.
 */
async function vitestStep(name, configArgs, timeoutMs) {
  const jsonFile = path.join(resultsDir, `${name}.json`);
  fs.rmSync(jsonFile, { force: true });
  const { code, timedOut } = await run(
    bin('vitest'),
    ['run', ...configArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`],
    { timeoutMs },
  );
  let passed = 0,
    failed = 0,
    skipped = 0;
  if (fs.existsSync(jsonFile)) {
    const report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    const brokenFiles = (report.testResults ?? []).filter(
      (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
    ).length;
    failed += brokenFiles;
  }
  if (code !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  record(
    name,
    code === 0 && failed === 0,
    `${passed} bestanden, ${failed} fehlgeschlagen${skipped ? `, ${skipped} übersprungen` : ''}${timedOut ? ', Zeitüberschreitung' : ''}`,
  );
}

// 4. Unit and API integration tests.
async function vitest() {
  heading('Vitest (Unit- und API-Tests)');
  // A guard against a hung run, not a budget: a normal run takes 6-8 minutes on two cores.
  await vitestStep('vitest', [], 20 * MINUTE);
}

// 4b. Several nodes: Debian's PostgreSQL server, two API nodes and haproxy (`npm run test:cluster`,
// apps/api/test/cluster). The harness installs postgresql and haproxy with apt-get when root; without root and
// without them the step is skipped with a message saying what to install.
async function cluster() {
  heading('Cluster (zwei Knoten, PostgreSQL-Server, haproxy)');
  const missing = [
    ...(fs.existsSync('/usr/lib/postgresql/15/bin/postgres') ? [] : ['postgresql']),
    ...(fs.existsSync('/usr/sbin/haproxy') ? [] : ['haproxy']),
  ];
  if (missing.length && process.getuid?.() !== 0) {
    console.warn(
      `[test] Clustertest übersprungen: Debians Pakete ${missing.join(', ')} fehlen und dieser Prozess läuft nicht als ` +
        `root. Einmal installieren: sudo apt-get install -y ${missing.join(' ')}`,
    );
    record('cluster', true, 'übersprungen (Pakete fehlen)');
    totals.skipped += 1;
    return;
  }
  await vitestStep('cluster', ['--config', 'vitest.cluster.config.ts'], 12 * MINUTE);
}

// 5. Browser tests (Playwright), owned by scripts/e2e.mjs.
async function e2e() {
  const script = path.join(root, 'scripts', 'e2e.mjs');
  if (!fs.existsSync(script)) {
    heading('E2E');
    console.log('scripts/e2e.mjs fehlt – keine Browsertests.');
    return;
  }
  heading('E2E (Playwright)');
  const jsonFile = path.join(resultsDir, 'playwright.json');
  fs.rmSync(jsonFile, { force: true });
  const { code, output, timedOut } = await run(process.execPath, [script], {
    // A guard against a hung run, not a budget (CI stops at 90 minutes).
    timeoutMs: 30 * MINUTE,
    // Picked up by Playwright's json reporter when the config or e2e.mjs enables it.
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile },
  });
  let passed = 0,
    failed = 0,
    skipped = 0;
  if (fs.existsSync(jsonFile)) {
    const stats = JSON.parse(fs.readFileSync(jsonFile, 'utf8')).stats ?? {};
    passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed = stats.unexpected ?? 0;
    skipped = stats.skipped ?? 0;
  } else {
    // Summary lines of the list/line/dot reporters: '  12 passed (31.2s)', '  1 failed', '  2 flaky', '  3 skipped'.
    const count = (word) =>
      [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    passed = count('passed') + count('flaky');
    failed = count('failed');
    skipped = count('skipped') + count('did not run');
  }
  if (code !== 0 && failed === 0) failed = 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  record(
    'e2e',
    code === 0 && failed === 0,
    `${passed} bestanden, ${failed} fehlgeschlagen${timedOut ? ', Zeitüberschreitung' : ''}`,
  );
}

const started = Date.now();
const chromiumOk = ensureChromium();
ensureXmllint();
ensureTransmissionTools();
await typecheck();
await lint();
await vitest();
await cluster();
if (chromiumOk) await e2e();

heading('Ergebnis');
for (const step of steps)
  console.log(`${step.ok ? 'ok  ' : 'FAIL'} ${step.name}${step.detail ? ` – ${step.detail}` : ''}`);
console.log(`Dauer: ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 || steps.some((s) => !s.ok) ? 1 : 0);
