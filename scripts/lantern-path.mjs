#!/usr/bin/env node
/**
 * Prints what Lighthouse's simulation (Lantern) puts on a page's LCP and TBT: the network requests and main-thread
 * tasks of the LCP graph with their simulated start and end (mobile profile: 150 ms RTT, 1.6 Mbit/s, 4× CPU),
 * the longest simulated tasks, and the metric values. Input: a folder saved by `BENCH_WEB_TRACE=1 npm run bench:web`
 * (test-results/lighthouse-<pid>/<page>-<run>.artifacts).
 *   node scripts/lantern-path.mjs <artifacts folder> [optimistic|pessimistic]
 */
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import * as constants from 'lighthouse/core/config/constants.js';

const [folder, which = 'pessimistic'] = process.argv.slice(2);
if (!folder) {
  console.error('usage: node scripts/lantern-path.mjs <artifacts folder> [optimistic|pessimistic]');
  process.exit(2);
}
const artifacts = await loadArtifacts(folder);
const settings = { ...constants.defaultSettings, formFactor: 'mobile', throttlingMethod: 'simulate' };
const context = { computedCache: new Map(), settings };
const data = {
  trace: artifacts.Trace,
  devtoolsLog: artifacts.DevtoolsLog,
  gatherContext: artifacts.GatherContext,
  settings,
  simulator: null,
  URL: artifacts.URL,
  SourceMaps: artifacts.SourceMaps,
};
const lcp = await LanternLargestContentfulPaint.request(data, context);
const tbt = await LanternTotalBlockingTime.request(data, context);
const short = (url) => url.replace(/^https?:\/\/[^/]+/, '').slice(0, 70);
const describe = (node) => {
  if (node.type === 'network')
    return `${node.request.resourceType ?? ''} ${short(node.request.url)} (${(node.request.transferSize / 1024).toFixed(1)} kB)`;
  const urls = [...node.getEvaluateScriptURLs()].map(short);
  const names = new Set(node.childEvents.map((e) => e.name));
  const kind = urls.length
    ? `evaluate ${urls.join(', ')}`
    : names.has('Layout')
      ? 'layout'
      : names.has('TimerFire')
        ? 'timer'
        : names.has('FunctionCall')
          ? 'script'
          : [...names].slice(0, 3).join(',');
  return `CPU ${kind} (observed ${(node.duration / 1000).toFixed(1)} ms)`;
};
console.log(
  `LCP ${lcp.timing.toFixed(0)} ms (optimistic ${lcp.optimisticEstimate.timeInMs.toFixed(0)}, pessimistic ${lcp.pessimisticEstimate.timeInMs.toFixed(0)}); TBT ${tbt.timing.toFixed(0)} ms`,
);
const timings = [...lcp[`${which}Estimate`].nodeTimings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
console.log(`${which} LCP graph (${timings.length} nodes), simulated ms:`);
for (const [node, t] of timings) {
  console.log(`${t.startTime.toFixed(0).padStart(6)} → ${t.endTime.toFixed(0).padStart(6)}  ${describe(node)}`);
}
const tasks = [...tbt.pessimisticEstimate.nodeTimings.entries()]
  .filter(([node, t]) => node.type === 'cpu' && t.duration > 50)
  .sort((a, b) => a[1].startTime - b[1].startTime);
console.log('tasks over 50 ms (TBT graph, simulated):');
for (const [node, t] of tasks)
  console.log(`${t.startTime.toFixed(0).padStart(6)} +${t.duration.toFixed(0).padStart(4)}  ${describe(node)}`);
