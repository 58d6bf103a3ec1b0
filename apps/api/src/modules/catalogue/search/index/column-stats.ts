/**
 * Statistics of the feature slots (f1…f8) over a list of ids: the counts of a slot's (rounded) values – what an
 * alphanumeric feature's facet shows – and its range – what a numeric feature's slider shows. Shared by the index's
 * kept class summaries (search-index.ts) and the statistics of a result (feature-stats.ts).
 *
 * The slots are interleaved (SearchIndex.slotValues: slot s of id at [id * SLOTS + s - 1]) and every slot asked for
 * is taken in one pass over the ids: a class part's ids lie scattered over the catalogue, and reading an id's slots
 * together costs one cache miss per id instead of one per id and slot.
 */

/** Feature slots per id. */
export const SLOTS = 8;

/** Value numbers below this are counted in a typed array, others in a Map. */
const DENSE_VALUES = 1 << 16;
/** Dense counts per slot (slot k's value r at [k * DENSE_VALUES + r]); zeroed again after each pass. */
const valueScratch = new Int32Array(SLOTS * DENSE_VALUES);

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

/** The statistics of the wanted slots over the first n ids, in one pass (the answer in the order of `wanted`). */
export function slotStats(values: Float32Array, ids: Uint32Array, n: number, wanted: SlotWanted[]): SlotStats[] {
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
        if (valueScratch[at[j] * DENSE_VALUES + r]++ === 0) seen[j].push(r);
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
          counts.set(r, valueScratch[offset + r]);
          valueScratch[offset + r] = 0; // the shared scratch is left zeroed
        } else counts.set(r, sparse[j]!.get(r)!);
      }
    }
    const range = ranging[j] && min[j] !== Infinity ? { min: min[j], max: max[j] } : null;
    out.push({ counts, range });
  }
  return out;
}
