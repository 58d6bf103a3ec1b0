/**
 * Time of a search's phases for the in-process profile of the distinct queries (bench/search-profile.ts). Off unless a
 * caller switches it on: then one branch per phase.
 *
 * Every phase is measured in the process's CPU time (process.cpuUsage, about a microsecond per reading; it includes
 * the garbage collector's helper threads): on a shared machine a wall clock also counts the time the process was not
 * scheduled, so phases measured in wall time could add up to more than the search's CPU. The synchronous phases – the index engine's (word bitmaps, dimensions, facet
 * counts, feature statistics, pages) and the steps after them (filter options, answer building, serialisation) – run
 * without interruption, so concurrent searches do not blur them. The asynchronous steps (query analysis and the hits'
 * hydration, both with Postgres round trips) count the CPU between their start and end: exact only while one search
 * runs at a time, as in the profile; their waits for Postgres are not counted.
 */

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
  /**
   * Also the bytes a phase allocates (growth of the used heap; a phase during which a garbage collection shrank the
   * heap counts as 0, so run with a young generation far larger than a search, --max-semi-space-size=64; for the
   * asynchronous phases only exact one search at a time).
   */
  allocations: null as Map<Phase, number> | null,
  add(phase: Phase, ms: number) {
    this.totals.set(phase, (this.totals.get(phase) ?? 0) + ms);
  },
  /** Adds the CPU time of the synchronous `run` to `phase` (when enabled) and returns its result. */
  measure<T>(phase: Phase, run: () => T): T {
    if (!this.enabled) return run();
    const end = this.begin(phase);
    try {
      return run();
    } finally {
      end();
    }
  },
  /**
   * Adds the process's CPU time from the start to the end of the asynchronous `run` to `phase` (when enabled): only
   * meaningful while nothing else runs in the process (the one-after-another profile).
   */
  async measureCpu<T>(phase: Phase, run: () => Promise<T>): Promise<T> {
    if (!this.enabled) return run();
    const end = this.begin(phase);
    try {
      return await run();
    } finally {
      end();
    }
  },
  /** Starts measuring `phase`; the returned function adds its CPU time (and allocated bytes, when asked) since. */
  begin(phase: Phase): () => void {
    const heapBefore = this.allocations ? process.memoryUsage().heapUsed : 0;
    const started = process.cpuUsage();
    return () => {
      this.add(phase, cpuMs(process.cpuUsage(started)));
      if (!this.allocations) return;
      const grown = Math.max(0, process.memoryUsage().heapUsed - heapBefore);
      this.allocations.set(phase, (this.allocations.get(phase) ?? 0) + grown);
    };
  },
  /** The totals since the last take, and a fresh start. */
  take(): Map<Phase, number> {
    const out = this.totals;
    this.totals = new Map();
    return out;
  },
};
