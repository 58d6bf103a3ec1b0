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
 * The statistics of the wanted slots over the first n ids (the answer in the order of `wanted`). Few ids: one tight
 * loop per slot and statistic (the first loop brings the ids' cache lines in, the others read them from the cache);
 * many ids (their lines no longer stay in the cache): one pass reading every wanted slot of an id together. Measured at
 * 5M: class parts of about 1,000 ids 6–8 slots in half the time of eight separate columns by the loops per slot, twice
 * that time by the one pass; the 59 whole classes' summaries 1.0 s by the one pass, 2.5 s by the loops per slot, 1.8 s
 * from eight columns.
 */
export function slotStats(values: Float32Array, ids: Uint32Array, n: number, wanted: SlotWanted[]): SlotStats[] {
  if (n >= ONE_PASS_FROM) return slotStatsInOnePass(values, ids, n, wanted);
  return wanted.map(({ slot, counts, range }) => ({
    counts: counts ? valueCounts(values, ids, n, slot - 1) : null,
    range: range ? rangeOf(values, ids, n, slot - 1) : null,
  }));
}

/** From this many ids on, slotStats reads every wanted slot of an id in one pass. */
const ONE_PASS_FROM = 32_768;

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

/** Dense counts of every slot's values (slot k's value r at [k * DENSE_VALUES + r]); zeroed again after each pass. */
const allSlotsScratch = new Int32Array(SLOTS * DENSE_VALUES);

function slotStatsInOnePass(values: Float32Array, ids: Uint32Array, n: number, wanted: SlotWanted[]): SlotStats[] {
  const m = wanted.length;
  const at = new Int32Array(m);
  const counting = new Uint8Array(m);
  const ranging = new Uint8Array(m);
  const min = new Float64Array(m).fill(Infinity);
  const max = new Float64Array(m).fill(-Infinity);
  const seen: number[][] = [];
  const sparse: (Map<number, number> | null)[] = [];
  for (let j = 0; j < m; j++) {
    at[j] = wanted[j].slot - 1;
    counting[j] = wanted[j].counts ? 1 : 0;
    ranging[j] = wanted[j].range ? 1 : 0;
    seen.push([]);
    sparse.push(null);
  }
  for (let k = 0; k < n; k++) {
    const base = ids[k] * SLOTS;
    for (let j = 0; j < m; j++) {
      const v = values[base + at[j]];
      if (v !== v) continue; // NaN: no value
      if (ranging[j]) {
        if (v < min[j]) min[j] = v;
        if (v > max[j]) max[j] = v;
      }
      if (!counting[j]) continue;
      const r = Math.round(v);
      if (r >= 0 && r < DENSE_VALUES) {
        if (allSlotsScratch[at[j] * DENSE_VALUES + r]++ === 0) seen[j].push(r);
      } else {
        const map = (sparse[j] ??= new Map());
        const before = map.get(r);
        if (before === undefined) seen[j].push(r);
        map.set(r, (before ?? 0) + 1);
      }
    }
  }
  const out: SlotStats[] = [];
  for (let j = 0; j < m; j++) {
    let counts: Map<number, number> | null = null;
    if (counting[j]) {
      counts = new Map();
      const offset = at[j] * DENSE_VALUES;
      for (const r of seen[j]) {
        if (r >= 0 && r < DENSE_VALUES) {
          counts.set(r, allSlotsScratch[offset + r]);
          allSlotsScratch[offset + r] = 0; // the shared scratch is left zeroed
        } else counts.set(r, sparse[j]!.get(r)!);
      }
    }
    const range = ranging[j] && min[j] !== Infinity ? { min: min[j], max: max[j] } : null;
    out.push({ counts, range });
  }
  return out;
}
