/**
 * The feature statistics of one ETIM class within a result (the class's feature facets: value counts of the
 * alphanumeric features, the range of the numeric ones), read from the feature slot columns f1…f8.
 *
 * A result is mostly either a small part of the class or most of it (a class filter, a word naming the class): the
 * whole class's statistics are kept per index change, so a result holding the whole class reads nothing, and a result
 * holding most of it reads only the ids it lacks (value counts: the whole class's minus the missing ones'; a range
 * bound: kept when the result holds one of the class's products at that bound, else read from the result's ids).
 * The counts are exact either way (search-index.test.ts compares the ways).
 */
import type { CatalogueMeta } from '../../catalogue-meta.ts';
import type { FeatureStats } from '../facets.ts';
import { RoaringBitmap32, type Bitmap, type SearchIndex } from './search-index.ts';

/** 'ids': over the result's ids; 'complement': from the whole class's statistics; undefined: the cheaper one. */
export type FeatureCounting = 'ids' | 'complement';

interface SlotOf {
  slot: number;
  featureId: string;
  kind: 'A' | 'N';
}

/** A numeric slot's range over a whole class and the class's products at either bound. */
interface ClassRange {
  min: number;
  max: number;
  atMin: Bitmap;
  atMax: Bitmap;
}

interface ClassStats {
  members: number;
  stats: FeatureStats;
  ranges: Map<string, ClassRange>;
}

/** The whole classes' statistics per index, valid for the index's change count they were taken at. */
const wholeClasses = new WeakMap<SearchIndex, { changes: number; byClass: Map<number, ClassStats> }>();

/** Value numbers of alphanumeric features below this are counted in a typed array, others in a Map. */
const DENSE_VALUES = 1 << 16;
const valueScratch = new Int32Array(DENSE_VALUES);

export function featureStatsOf(
  index: SearchIndex,
  meta: CatalogueMeta,
  classNo: number,
  result: Bitmap,
  counting?: FeatureCounting,
): FeatureStats {
  const slots = slotsOf(meta, classNo);
  const members = index.classes.get(classNo);
  if (!slots.length || !members) return { numeric: new Map(), values: new Map() };
  const matching = RoaringBitmap32.and(result, members);
  // Most of the class: from its kept statistics. A small part: its own ids (fewer than the missing ones).
  const how = counting ?? (matching.size * 2 > members.size ? 'complement' : 'ids');
  if (how === 'ids') return statsOverIds(index, slots, matching);
  const whole = wholeClass(index, slots, classNo, members);
  if (matching.size === whole.members) return whole.stats;
  return statsByComplement(index, slots, whole, matching, RoaringBitmap32.andNot(members, matching));
}

function slotsOf(meta: CatalogueMeta, classNo: number): SlotOf[] {
  return (meta.classes.get(classNo)?.slots ?? []).map((s) => ({
    slot: s.slot,
    featureId: s.featureId,
    kind: meta.features.get(s.featureId)!.kind,
  }));
}

/** The statistics over a bitmap's ids, one pass per slot. */
function statsOverIds(index: SearchIndex, slots: SlotOf[], bitmap: Bitmap): FeatureStats {
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  const ids = index.ids(bitmap); // shared buffer: read synchronously below
  const n = bitmap.size;
  for (const s of slots) {
    const column = index.f[s.slot - 1];
    if (s.kind === 'A') {
      const values = valueCounts(column, ids, n);
      if (values.size) stats.values.set(s.featureId, values);
    } else {
      const range = rangeOf(column, ids, n);
      if (range) stats.numeric.set(s.featureId, range);
    }
  }
  return stats;
}

function rangeOf(column: Float32Array, ids: Uint32Array, n: number): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = column[ids[k]];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min === Infinity ? null : { min, max };
}

/** The whole class's statistics, with its products at each numeric bound; taken once per index change. */
function wholeClass(index: SearchIndex, slots: SlotOf[], classNo: number, members: Bitmap): ClassStats {
  let kept = wholeClasses.get(index);
  if (kept?.changes !== index.changes) wholeClasses.set(index, (kept = { changes: index.changes, byClass: new Map() }));
  const known = kept.byClass.get(classNo);
  if (known) return known;
  const stats = statsOverIds(index, slots, members);
  const ranges = new Map<string, ClassRange>();
  const ids = index.ids(members); // shared buffer: read synchronously below
  for (const s of slots) {
    const range = stats.numeric.get(s.featureId);
    if (s.kind !== 'N' || !range) continue;
    const column = index.f[s.slot - 1];
    const atMin: number[] = [];
    const atMax: number[] = [];
    for (let k = 0; k < members.size; k++) {
      const v = column[ids[k]];
      if (v === range.min) atMin.push(ids[k]);
      if (v === range.max) atMax.push(ids[k]);
    }
    ranges.set(s.featureId, {
      min: range.min!,
      max: range.max!,
      atMin: new RoaringBitmap32(atMin),
      atMax: new RoaringBitmap32(atMax),
    });
  }
  const entry: ClassStats = { members: members.size, stats, ranges };
  kept.byClass.set(classNo, entry);
  return entry;
}

/**
 * The statistics of most of a class: the value counts of the whole class less those of the `missing` products; a
 * range bound from the whole class while the result holds a product at it, the others over the result's ids.
 */
function statsByComplement(
  index: SearchIndex,
  slots: SlotOf[],
  whole: ClassStats,
  matching: Bitmap,
  missing: Bitmap,
): FeatureStats {
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  const missingIds = index.ids(missing); // shared buffer: read synchronously in this loop
  for (const s of slots) {
    if (s.kind !== 'A') continue;
    const all = whole.stats.values.get(s.featureId);
    if (!all) continue;
    const less = valueCounts(index.f[s.slot - 1], missingIds, missing.size);
    const values = new Map<number, number>();
    for (const [value, count] of all) {
      const n = count - (less.get(value) ?? 0);
      if (n > 0) values.set(value, n);
    }
    if (values.size) stats.values.set(s.featureId, values);
  }
  const open: SlotOf[] = [];
  for (const s of slots) {
    const range = s.kind === 'N' ? whole.ranges.get(s.featureId) : undefined;
    if (!range) continue;
    if (matching.intersects(range.atMin) && matching.intersects(range.atMax))
      stats.numeric.set(s.featureId, { min: range.min, max: range.max });
    else open.push(s);
  }
  if (open.length) {
    const ids = index.ids(matching); // shared buffer: read synchronously in this loop
    for (const s of open) {
      const range = rangeOf(index.f[s.slot - 1], ids, matching.size);
      if (range) stats.numeric.set(s.featureId, range);
    }
  }
  return stats;
}

/** Per value of a feature column (rounded), the ids having it, in order of first occurrence (as a Map would). */
function valueCounts(column: Float32Array, ids: Uint32Array, n: number): Map<number, number> {
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
