/**
 * Wall time of the index engine's synchronous phases (facet counts, feature statistics, word bitmaps, pages), for
 * the in-process profile of the distinct queries (bench/search-profile.ts). Off unless a caller switches it on: then
 * one branch per phase. Only synchronous work is measured, so concurrent searches do not blur the figures.
 */
import { performance } from 'node:perf_hooks';

export type Phase = 'facets' | 'features' | 'words' | 'dimensions' | 'page';

export const phaseClock = {
  enabled: false,
  totals: new Map<Phase, number>(),
  /** Adds the time of `run` to `phase` (when enabled) and returns its result. */
  measure<T>(phase: Phase, run: () => T): T {
    if (!this.enabled) return run();
    const started = performance.now();
    try {
      return run();
    } finally {
      this.totals.set(phase, (this.totals.get(phase) ?? 0) + performance.now() - started);
    }
  },
  /** The totals since the last take, and a fresh start. */
  take(): Map<Phase, number> {
    const out = this.totals;
    this.totals = new Map();
    return out;
  },
};
