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

/** 'ids': over the result's ids; 'complement': from the whole class's summary; undefined: the cheaper one. */
export type FeatureCounting = 'ids' | 'complement';

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
    // Most of the class: from its summary. A small part: its own ids (fewer than the missing ones).
    const how = counting ?? (matching.size * 2 > members.size ? 'complement' : 'ids');
    if (how === 'ids') return statsOverIds(index, slots, matching);
    const summary = index.classSummary(classNo)!;
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
  if (open.length) {
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
  return stats;
}
