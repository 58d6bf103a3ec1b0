#!/usr/bin/env node
// Compiles the API (apps/api/src) to plain JavaScript in apps/api/dist with esbuild, so production runs
// `node apps/api/dist/main.js` without the TypeScript loader in the process (tsx keeps every module's
// source, its transform and source map in memory: ~60–80 MB of the API's resting RSS, docs/performance.md).
// Entries: main.js (the API), worker.js (`npm run worker`), report-worker.js (the report thread),
// order-pdf-worker.js (the order PDF thread). All output
// files lie flat in apps/api/dist (shared code in chunk-*.js), one level below apps/api like src, so paths
// computed from import.meta.url (config.ts repoRoot) hold. npm packages stay external (node_modules);
// @shk/contracts (TypeScript source) is bundled. `ensureApiBuild()` rebuilds only when a source is newer.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const apiDist = path.join(root, 'apps/api/dist');
const stamp = path.join(apiDist, '.built');
const sources = ['apps/api/src', 'apps/api/package.json', 'packages/contracts/src', 'package-lock.json'];

/** Newest modification time (ms) of a file or of every file below a directory (without node_modules and dist); 0 when missing. */
export function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Every npm package stays in node_modules (resolved there at run time); only the workspace's @shk/* is bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@shk/') || args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
    );
  },
};

const lockDir = `${apiDist}.lock`;

/**
 * One build at a time in a checkout (two `npm start`s, e2e runs side by side): a lock directory, waited for; a lock
 * older than two minutes was left by a killed build and is taken over.
 */
async function withBuildLock(work) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(lockDir).mtimeMs > 120_000) fs.rmSync(lockDir, { recursive: true, force: true });
      } catch {
        // removed meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export function buildApi() {
  return withBuildLock(compile);
}

async function compile() {
  const { build } = await import('esbuild');
  const startedAt = new Date();
  // Built beside dist and swapped in whole: an API running from the old dist still finds its files (the report
  // thread's report-worker.js and chunks are loaded later) except for the moment of the swap.
  const next = `${apiDist}.next-${process.pid}`;
  const old = `${apiDist}.old-${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      main: 'apps/api/src/main.ts',
      worker: 'apps/api/src/worker.ts',
      'report-worker': 'apps/api/src/modules/reports/generate-worker.ts',
      'order-pdf-worker': 'apps/api/src/modules/transmission/formats/pdf-thread-worker.ts',
    },
    outdir: next,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalPackages],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The stamp carries the build's start: a source saved while esbuild ran counts as newer (rebuilt next time).
  fs.writeFileSync(path.join(next, '.built'), startedAt.toISOString());
  fs.utimesSync(path.join(next, '.built'), startedAt, startedAt);
  if (fs.existsSync(apiDist)) fs.renameSync(apiDist, old);
  fs.renameSync(next, apiDist);
  fs.rmSync(old, { recursive: true, force: true });
}

/** Builds apps/api/dist when it is missing or older than a source; returns whether it built. */
export async function ensureApiBuild(log = () => {}) {
  const stale = () => {
    const builtAt = newestMtime(stamp);
    const changedAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
    return builtAt && builtAt >= changedAt ? null : builtAt ? 'veraltet' : 'fehlt';
  };
  if (!stale()) return false;
  return withBuildLock(async () => {
    // another process may have built it while this one waited for the lock
    const why = stale();
    if (!why) return false;
    log(why === 'veraltet' ? 'API ist veraltet – kompiliere neu …' : 'API noch nicht kompiliert – kompiliere …');
    await compile();
    return true;
  });
}

// `node scripts/build-api.mjs` builds; `--if-stale` only when a source is newer than the build (npm run worker).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  if (process.argv.includes('--if-stale')) {
    if (await ensureApiBuild((m) => console.log(`[build-api] ${m}`)))
      console.log(`[build-api] apps/api/dist in ${Date.now() - t0} ms`);
  } else {
    await buildApi();
    console.log(`[build-api] apps/api/dist in ${Date.now() - t0} ms`);
  }
}
