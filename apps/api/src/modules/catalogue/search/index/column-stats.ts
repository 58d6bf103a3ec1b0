/**
 * Statistics of the feature slots (f1…f8) over a list of ids: the counts of a slot's (rounded) values – what an
 * alphanumeric feature's facet shows – and its range – what a numeric feature's slider shows. Shared by the index's
 * kept class summaries (search-index.ts) and the statistics of a result (feature-stats.ts).
 *
 * The slots are interleaved (SearchIndex.slotValues: slot s of id at [id * SLOTS + s - 1]): a class part's ids lie
 * scattered over the catalogue, and an id's eight slots share one cache line, so only the first slot read misses the
 * cache per id instead of every slot (measured at 5M: 6–8 slots of a class part in half the time of eight columns).
 */

/** Feature slots per id. */
export const SLOTS = 8;

/** Value numbers below this are counted in a typed array, others in a Map. */
const DENSE_VALUES = 1 << 16;
/** Dense counts of one slot's values; zeroed again after each count. */
const valueScratch = new Int32Array(DENSE_VALUES);

/** What a pass takes of a slot (1…8): its value counts and/or its range. */
export interface SlotWanted {
  slot: number;
  counts: boolean;
  range: boolean;
}

/** A slot's statistics: value counts in order of first occurrence (null: not asked), range (null: no value). */
export interface SlotStats {
  counts: Map<number, number> | null;
  range: { min: number; max: number } | null;
}

/**
 * The statistics of the wanted slots over the first n ids (the answer in the order of `wanted`). One tight loop per
 * slot and statistic: the first loop brings the ids' cache lines in, the others read them from the cache (one loop over
 * all slots per id with the slot's kind looked up inside measured twice as slow).
 */
export function slotStats(values: Float32Array, ids: Uint32Array, n: number, wanted: SlotWanted[]): SlotStats[] {
  return wanted.map(({ slot, counts, range }) => ({
    counts: counts ? valueCounts(values, ids, n, slot - 1) : null,
    range: range ? rangeOf(values, ids, n, slot - 1) : null,
  }));
}

/** Per value of a slot (rounded), the ids having it, in order of first occurrence (as a Map would). */
function valueCounts(values: Float32Array, ids: Uint32Array, n: number, at: number): Map<number, number> {
  const seen: number[] = [];
  let sparse: Map<number, number> | null = null;
  for (let k = 0; k < n; k++) {
    const v = values[ids[k] * SLOTS + at];
    if (v !== v) continue; // NaN: no value
    const r = Math.round(v);
    if (r >= 0 && r < DENSE_VALUES) {
      if (valueScratch[r]++ === 0) seen.push(r);
    } else {
      sparse ??= new Map();
      const before = sparse.get(r);
      if (before === undefined) seen.push(r);
      sparse.set(r, (before ?? 0) + 1);
    }
  }
  const out = new Map<number, number>();
  for (const r of seen) {
    if (r >= 0 && r < DENSE_VALUES) {
      out.set(r, valueScratch[r]);
      valueScratch[r] = 0; // the shared scratch is left zeroed
    } else out.set(r, sparse!.get(r)!);
  }
  return out;
}

/** The lowest and highest value of a slot over the ids (NaN: no value); null when none has one. */
function rangeOf(values: Float32Array, ids: Uint32Array, n: number, at: number): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = values[ids[k] * SLOTS + at];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min === Infinity ? null : { min, max };
}
