/**
 * The feature statistics of one ETIM class within a result (the class's feature facets: value counts of the
 * alphanumeric features, the range of the numeric ones), read from the feature slot columns f1…f8.
 *
 * A large result is mostly either a small part of a class or most of it (a class filter, a word naming the class).
 * The index keeps each whole class's summary (SearchIndex.classSummary): a result holding the whole class reads
 * nothing, one holding most of it reads only the ids it lacks (value counts: the whole class's less the missing
 * products'; a range bound: the class's while the result holds one of the class's products at it, else read from the
 * result's ids). The counts are exact either way (the tests compare the ways).
 */
import type { CatalogueMeta } from '../../catalogue-meta.ts';
import type { FeatureStats } from '../facets.ts';
import { slotStats } from './column-stats.ts';
import { RoaringBitmap32, type Bitmap, type ClassSummary, type SearchIndex } from './search-index.ts';

/**
 * 'ids': over the result's ids; 'complement': from the whole class's summary less the missing products; 'bitmaps':
 * intersections with the class's value bitmaps; undefined: the cheapest.
 */
export type FeatureCounting = 'ids' | 'complement' | 'bitmaps';

interface SlotOf {
  slot: number;
  featureId: string;
  kind: 'A' | 'N';
}

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
  try {
    const summary = index.classSummary(classNo)!;
    const how = counting ?? cheapestWay(slots, summary, matching.size);
    if (how === 'ids') return statsOverIds(index, slots, matching);
    if (how === 'bitmaps') return statsByBitmaps(index, slots, summary, matching);
    const missing = RoaringBitmap32.andNot(members, matching);
    try {
      return statsByComplement(index, slots, summary, matching, missing);
    } finally {
      missing.dispose();
    }
  } finally {
    // Temporaries of up to a class's size: freed now, not left to the garbage collector (see SearchIndex.evaluate).
    matching.dispose();
  }
}

function slotsOf(meta: CatalogueMeta, classNo: number): SlotOf[] {
  return (meta.classes.get(classNo)?.slots ?? []).map((s) => ({
    slot: s.slot,
    featureId: s.featureId,
    kind: meta.features.get(s.featureId)!.kind,
  }));
}

/** The statistics over a bitmap's ids: every slot in one pass (value counts of the alphanumeric ones, ranges of the numeric). */
function statsOverIds(index: SearchIndex, slots: SlotOf[], bitmap: Bitmap): FeatureStats {
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  const ids = index.ids(bitmap); // shared buffer: read synchronously here
  const wanted = slots.map((s) => ({ slot: s.slot, counts: s.kind === 'A', range: s.kind === 'N' }));
  const taken = slotStats(index.slotValues, ids, bitmap.size, wanted);
  slots.forEach((s, j) => {
    const { counts, range } = taken[j];
    if (counts?.size) stats.values.set(s.featureId, counts);
    if (range) stats.numeric.set(s.featureId, range);
  });
  return stats;
}

/**
 * The statistics of most of a class: the value counts of the whole class less those of the `missing` products (one
 * pass over them for every alphanumeric slot); a range bound from the whole class while the result holds a product at
 * it, the others over the result's ids (one pass for every such slot).
 */
function statsByComplement(
  index: SearchIndex,
  slots: SlotOf[],
  summary: ClassSummary,
  matching: Bitmap,
  missing: Bitmap,
): FeatureStats {
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  const alphanumeric = slots.filter((s) => s.kind === 'A' && summary.slots[s.slot - 1]);
  const less = missing.size
    ? slotStats(
        index.slotValues,
        index.ids(missing), // shared buffer: read synchronously here
        missing.size,
        alphanumeric.map((s) => ({ slot: s.slot, counts: true, range: false })),
      )
    : null;
  alphanumeric.forEach((s, j) => {
    const whole = summary.slots[s.slot - 1]!;
    const lessCounts = less?.[j].counts;
    const values = new Map<number, number>();
    for (const [value, count] of whole.values) {
      const n = count - (lessCounts?.get(value) ?? 0);
      if (n > 0) values.set(value, n);
    }
    if (values.size) stats.values.set(s.featureId, values);
  });
  const open: SlotOf[] = [];
  for (const s of slots) {
    const whole = summary.slots[s.slot - 1];
    if (s.kind !== 'N' || !whole) continue;
    if (matching.intersects(whole.atMin) && matching.intersects(whole.atMax))
      stats.numeric.set(s.featureId, { min: whole.min, max: whole.max });
    else open.push(s);
  }
  rangesOverIds(index, open, matching, stats);
  return stats;
}

/**
 * The cheapest way for a class part of `part` of the summary's members, in units of one id read (a random read of its
 * slots, a cache miss): its own ids; the missing members' ids; or one intersection per value of the alphanumeric
 * slots (an andCardinality over the part's containers: at 5M 10–40 µs, against 0.05–0.35 µs per id read) and
 * a few intersections per numeric slot.
 */
function cheapestWay(slots: SlotOf[], summary: ClassSummary, part: number): FeatureCounting {
  let intersections = 0;
  for (const s of slots) {
    const whole = summary.slots[s.slot - 1];
    if (whole) intersections += s.kind === 'A' ? whole.exact.length : 2;
  }
  const costs: [FeatureCounting, number][] = [
    ['ids', part],
    ['complement', summary.members - part],
    ['bitmaps', intersections * BITMAP_COST_PER_VALUE],
  ];
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/** What an intersection with a value bitmap costs, in id reads (see cheapestWay). */
const BITMAP_COST_PER_VALUE = 60;

/**
 * Steps of a numeric slot's walk from either end of its values (an intersection test each) before the part's ids are
 * read for its range instead.
 */
const RANGE_WALK = 32;

/**
 * The statistics of a class part from the class's value bitmaps: an alphanumeric slot's counts as the part's
 * intersection cardinality with each value's bitmap; a numeric slot's range as the first values from either end
 * whose bitmap the part intersects (after RANGE_WALK values without one, over the part's ids).
 */
function statsByBitmaps(index: SearchIndex, slots: SlotOf[], summary: ClassSummary, matching: Bitmap): FeatureStats {
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  const open: SlotOf[] = [];
  for (const s of slots) {
    const whole = summary.slots[s.slot - 1];
    if (!whole) continue;
    const { exact, holders } = whole;
    if (s.kind === 'A') {
      const values = new Map<number, number>();
      for (let k = 0; k < exact.length; k++) {
        const n = matching.andCardinality(holders[k]);
        if (!n) continue;
        const r = Math.round(exact[k]);
        values.set(r, (values.get(r) ?? 0) + n);
      }
      if (values.size) stats.values.set(s.featureId, values);
      continue;
    }
    const last = exact.length - 1;
    let low = -1;
    for (let k = 0; k <= last && k < RANGE_WALK; k++)
      if (matching.intersects(holders[k])) {
        low = k;
        break;
      }
    let high = -1;
    if (low >= 0)
      for (let k = last; k >= low && last - k < RANGE_WALK; k--)
        if (matching.intersects(holders[k])) {
          high = k;
          break;
        }
    if (high >= 0) stats.numeric.set(s.featureId, { min: exact[low], max: exact[high] });
    else if (low >= 0 || exact.length > RANGE_WALK) open.push(s);
  }
  rangesOverIds(index, open, matching, stats);
  return stats;
}

/** The ranges of the numeric slots `open` over the ids of `matching` (slots the summary alone did not settle). */
function rangesOverIds(index: SearchIndex, open: SlotOf[], matching: Bitmap, stats: FeatureStats) {
  if (!open.length) return;
  const ranges = slotStats(
    index.slotValues,
    index.ids(matching), // shared buffer: read synchronously here
    matching.size,
    open.map((s) => ({ slot: s.slot, counts: false, range: true })),
  );
  open.forEach((s, j) => {
    const range = ranges[j].range;
    if (range) stats.numeric.set(s.featureId, range);
  });
}
