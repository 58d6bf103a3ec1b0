#!/usr/bin/env node
/**
 * What a page's main thread ran, task by task: reads a folder saved by `BENCH_WEB_TRACE=samples npm run bench:web`
 * (test-results/lighthouse-<pid>/<page>-<run>.artifacts) and prints every main-thread task of at least MIN ms
 * (observed, i.e. before Lighthouse's 4× CPU slowdown) after the first paint: its start (ms after navigation), length,
 * kind (timer, message/script, layout …) and where its sampled JS time went, by original source file (node_modules
 * package or src/… path) when the build's source maps are given; last, the totals by source over all those tasks.
 * BY=function: by source file and function (the function's original name where the map has it).
 *   node scripts/trace-tasks.mjs <artifacts folder> [dist folder with the .map files] [MIN ms, default 10]
 * (The build's maps: build with `npm run build -w @shk/web -- --outDir <dir>` and bench it with BENCH_WEB_DIST=<dir>.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js';
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js';
import { ProcessedNavigation } from 'lighthouse/core/computed/processed-navigation.js';
import { ProcessedTrace } from 'lighthouse/core/computed/processed-trace.js';
import { SourceMapConsumer } from 'source-map-js';

const [folder, distDir, minArg] = process.argv.slice(2);
if (!folder) {
  console.error('usage: node scripts/trace-tasks.mjs <artifacts folder> [dist folder] [min ms]');
  process.exit(2);
}
const MIN_MS = Number(minArg ?? 10);
const artifacts = await loadArtifacts(folder);
const trace = artifacts.Trace;
const context = { computedCache: new Map() };
const processed = await ProcessedTrace.request(trace, context);
const tasks = await MainThreadTasks.request(trace, context);
const origin = processed.timeOriginEvt.ts;
const mainPid = processed.mainThreadEvents[0]?.pid;

// The V8 sampling profile of the page's renderer (Profile + ProfileChunk events): samples with their time and node.
const nodes = new Map();
const scriptUrls = new Map();
const samples = [];
const profile = trace.traceEvents.find((e) => e.name === 'Profile' && e.pid === mainPid);
if (profile) {
  let ts = profile.args.data.startTime;
  const chunks = trace.traceEvents.filter((e) => e.name === 'ProfileChunk' && e.pid === mainPid && e.id === profile.id);
  for (const chunk of chunks) {
    const data = chunk.args.data;
    for (const node of data.cpuProfile?.nodes ?? []) {
      nodes.set(node.id, node);
      if (node.callFrame.url) scriptUrls.set(node.callFrame.scriptId, node.callFrame.url);
    }
    const ids = data.cpuProfile?.samples ?? [];
    ids.forEach((id, i) => {
      ts += data.timeDeltas[i];
      samples.push({ ts, id });
    });
  }
  samples.sort((a, b) => a.ts - b.ts);
}

const maps = new Map();
function mapOf(url) {
  const file = url.replace(/^https?:\/\/[^/]+\//, '').split('?')[0];
  if (!maps.has(file)) {
    const mapFile = distDir ? path.join(distDir, `${file}.map`) : null;
    maps.set(
      file,
      mapFile && fs.existsSync(mapFile) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8'))) : null,
    );
  }
  return maps.get(file);
}

/** The original source file of a sample's function; with BY=function also its name (`react-dom commitRoot`). */
const BY_FUNCTION = process.env.BY === 'function';
function sourceOf(node) {
  const frame = node.callFrame;
  const name = BY_FUNCTION && frame.functionName ? ` ${frame.functionName}` : '';
  const url = frame.url || scriptUrls.get(frame.scriptId) || '';
  if (!url) return `(${frame.functionName || 'program'})`;
  const map = url.includes('/assets/') ? mapOf(url) : null;
  if (map) {
    const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (pos.source) {
      const m = pos.source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
      return (m ? m[1] : pos.source.replace(/^.*?\/src\//, 'src/')) + (BY_FUNCTION && pos.name ? ` ${pos.name}` : name);
    }
  }
  return url.replace(/^https?:\/\/[^/]+/, '') + name;
}

/** Sampled self time (ms) by source between two trace timestamps. */
function sampledSources(startTs, endTs) {
  const bySource = new Map();
  let i = samples.findIndex((s) => s.ts >= startTs);
  if (i < 0) return bySource;
  for (; i < samples.length && samples[i].ts <= endTs; i++) {
    const next = samples[i + 1]?.ts ?? samples[i].ts;
    const source = sourceOf(nodes.get(samples[i].id));
    if (source === '(idle)') continue;
    bySource.set(source, (bySource.get(source) ?? 0) + Math.min(next, endTs) / 1000 - samples[i].ts / 1000);
  }
  return bySource;
}

function kindOf(task) {
  const names = new Set();
  const walk = (t) => {
    names.add(t.event.name);
    t.children.forEach(walk);
  };
  walk(task);
  const kinds = [];
  if (names.has('TimerFire')) kinds.push('timer');
  if (names.has('v8.evaluateModule') || names.has('EvaluateScript')) kinds.push('evaluate');
  if (names.has('FunctionCall')) kinds.push('script');
  if (names.has('Layout')) kinds.push('layout');
  if (names.has('UpdateLayoutTree')) kinds.push('style');
  if (names.has('Paint')) kinds.push('paint');
  return kinds.join('+') || [...names].slice(0, 3).join(',');
}

const navigation = await ProcessedNavigation.request(trace, context);
const fcp = navigation.timestamps.firstContentfulPaint ?? origin;
/**
 * The thread's own CPU time of a task (trace 'tdur'): unlike the wall time it does not grow while the shared machine
 * runs other processes, so before/after comparisons under load use it.
 */
const cpuMsOf = (task) => {
  const tdur = task.event.tdur ?? (task.endEvent?.tts ?? NaN) - (task.event.tts ?? NaN);
  return Number.isFinite(tdur) ? tdur / 1000 : task.duration;
};
const afterFcp = tasks.filter((t) => !t.parent && t.event.ts >= fcp);
const long = afterFcp.filter((t) => cpuMsOf(t) >= MIN_MS);
const totals = new Map();
const top = (map, n) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .filter(([, ms]) => ms >= 0.5)
    .map(([source, ms]) => `${source} ${ms.toFixed(1)}`);
console.log(`first contentful paint at ${((fcp - origin) / 1000).toFixed(0)} ms; tasks ≥ ${MIN_MS} ms after it:`);
for (const task of long) {
  const startTs = task.event.ts;
  const endTs = startTs + task.duration * 1000;
  const sources = sampledSources(startTs, endTs);
  for (const [source, ms] of sources) totals.set(source, (totals.get(source) ?? 0) + ms);
  console.log(
    `${task.startTime.toFixed(0).padStart(6)} +${task.duration.toFixed(1).padStart(6)} ms (cpu ${cpuMsOf(task).toFixed(1).padStart(5)})  ${kindOf(task).padEnd(28)} ${top(sources, 6).join(', ')}`,
  );
}
// Lighthouse's simulation multiplies each task by its CPU slowdown (4×) and counts what exceeds 50 ms as blocking.
const cpuTotal = afterFcp.reduce((n, t) => n + cpuMsOf(t), 0);
const blocking = afterFcp.reduce((n, t) => n + Math.max(0, 4 * cpuMsOf(t) - 50), 0);
console.log(
  `\nafter the first paint: ${afterFcp.length} tasks, cpu ${cpuTotal.toFixed(0)} ms (wall ${afterFcp.reduce((n, t) => n + t.duration, 0).toFixed(0)} ms); ` +
    `Σ max(0, 4 × cpu − 50) = ${blocking.toFixed(0)} ms (what Lighthouse's blocking time would be without the load)`,
);
const sum = [...totals.values()].reduce((a, b) => a + b, 0);
console.log(`\nsampled in those tasks: ${sum.toFixed(0)} ms, by source:`);
for (const line of top(totals, 30)) console.log(`  ${line}`);
