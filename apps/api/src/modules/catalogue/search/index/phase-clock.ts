/**
 * Time of a search's phases for the in-process profile of the distinct queries (bench/search-profile.ts). Off unless a
 * caller switches it on: then one branch per phase.
 *
 * The index engine's synchronous phases (word bitmaps, dimensions, facet counts, feature statistics, pages) and the
 * synchronous steps after them (filter options, answer building, serialisation) are measured in wall time: nothing
 * else runs in between, so concurrent searches do not blur them. The asynchronous steps (query analysis and the
 * hits' hydration, both with Postgres round trips) are measured in the process's CPU time (process.cpuUsage) between
 * their start and end: exact only while one search runs at a time, as in the profile; their waits for Postgres are
 * not counted.
 */
import { performance } from 'node:perf_hooks';

/** The index engine's phases. */
export type IndexPhase = 'facets' | 'features' | 'words' | 'dimensions' | 'page';
/** What a search does after (and before) the index phases. */
export type AnswerPhase = 'analysis' | 'filterOptions' | 'hydration' | 'answer' | 'serialisation';
export type Phase = IndexPhase | AnswerPhase;

export const INDEX_PHASES: readonly IndexPhase[] = ['words', 'dimensions', 'facets', 'features', 'page'];
export const ANSWER_PHASES: readonly AnswerPhase[] = [
  'analysis',
  'filterOptions',
  'hydration',
  'answer',
  'serialisation',
];

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

export const phaseClock = {
  enabled: false,
  totals: new Map<Phase, number>(),
  add(phase: Phase, ms: number) {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
  },
  /** Adds the wall time of the synchronous `run` to `phase` (when enabled) and returns its result. */
  measure<T>(phase: Phase, run: () => T): T {
    if (!this.enabled) return run();
    const started = performance.now();
    try {
      return run();
    } finally {
      this.add(phase, performance.now() - started);
    }
  },
  /**
   * Adds the process's CPU time from the start to the end of the asynchronous `run` to `phase` (when enabled): only
   * meaningful while nothing else runs in the process (the one-after-another profile).
   */
  async measureCpu<T>(phase: Phase, run: () => Promise<T>): Promise<T> {
    if (!this.enabled) return run();
    const started = process.cpuUsage();
    try {
      return await run();
    } finally {
      this.add(phase, cpuMs(process.cpuUsage(started)));
    }
  },
  /** The totals since the last take, and a fresh start. */
  take(): Map<Phase, number> {
    const out = this.totals;
    this.totals = new Map();
    return out;
  },
};
