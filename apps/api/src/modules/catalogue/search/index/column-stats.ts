/**
 * Statistics of a feature slot column (f1…f8) over a list of ids: the counts of its (rounded) values – what an
 * alphanumeric feature's facet shows – and its range – what a numeric feature's slider shows. Shared by the index's
 * kept class summaries (search-index.ts) and the statistics of a result (feature-stats.ts).
 */

/** Value numbers below this are counted in a typed array, others in a Map. */
const DENSE_VALUES = 1 << 16;
const valueScratch = new Int32Array(DENSE_VALUES);

/** Per value of a feature column (rounded), the ids having it, in order of first occurrence (as a Map would). */
export function valueCounts(column: Float32Array, ids: Uint32Array, n: number): Map<number, number> {
  const seen: number[] = [];
  const sparse = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const v = column[ids[k]];
    if (Number.isNaN(v)) continue;
    const r = Math.round(v);
    if (r >= 0 && r < DENSE_VALUES) {
      if (valueScratch[r]++ === 0) seen.push(r);
    } else {
      if (!sparse.has(r)) seen.push(r);
      sparse.set(r, (sparse.get(r) ?? 0) + 1);
    }
  }
  const out = new Map<number, number>();
  for (const r of seen) {
    if (r >= 0 && r < DENSE_VALUES) {
      out.set(r, valueScratch[r]);
      valueScratch[r] = 0;
    } else out.set(r, sparse.get(r)!);
  }
  return out;
}

/** The lowest and highest value of the ids (NaN: no value); null when none has one. */
export function rangeOf(column: Float32Array, ids: Uint32Array, n: number): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = column[ids[k]];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min === Infinity ? null : { min, max };
}
