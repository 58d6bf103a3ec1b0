/**
 * The index's per-id columns and memos (less CPU per search): facet counts from the brand/leaf/class columns
 * equal the intersection counts of the value bitmaps – also after changes, after a snapshot round trip and for the
 * whole catalogue, whose counts are kept until the next change; the name order of small results (positions in the
 * name order as a bitmap) equals sorting by name rank. No database: rows are written here.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SearchRow } from './search-index.repo.ts';
import { facetSetOf } from './index-engine.ts';
import { featureStatsOf } from './feature-stats.ts';
import type { CatalogueMeta } from '../../catalogue-meta.ts';
import { parseTsvector, RoaringBitmap32, SearchIndex, type Bitmap, type ClassSummary } from './search-index.ts';
import { seededRandom } from '../typo-sample.ts';

const random = seededRandom(7);
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];

function row(id: number, overrides: Partial<SearchRow> = {}): SearchRow {
  return {
    id,
    rank: id,
    name_rank: null,
    vec: `'${pick(['rohr', 'ventil', 'hahn'])}':1A '${pick(['kupfer', 'messing'])}':2C`,
    brand_no: pick([1, 2, 3, 7]),
    class_no: pick([null, 10, 11, 12]),
    leaf_no: pick([100, 101, 102]),
    promo: random() < 0.2,
    supplier_nos: [pick([1, 2]), pick([2, 3])],
    price_cents: Math.floor(random() * 10_000),
    f: [null, null, null, null, null, null, null, null],
    ...overrides,
  };
}

/** The facet counts as intersections with every value bitmap (what facetSetOf did before the columns). */
function expected(index: SearchIndex, result: Bitmap) {
  const counts = (map: Map<number, Bitmap>) =>
    new Map([...map].map(([k, b]) => [k, result.andCardinality(b)] as const).filter(([, n]) => n > 0));
  const prices = [...result].map((id) => index.price[id]).filter((p) => !Number.isNaN(p));
  return {
    total: result.size,
    brands: counts(index.brands),
    classes: counts(index.classes),
    leaves: counts(index.leaves),
    suppliers: counts(index.suppliers),
    promo: result.andCardinality(index.promo),
    price: prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : { min: null, max: null },
  };
}

function build(n: number, rankOf = (k: number) => k + 1): SearchIndex {
  const index = new SearchIndex();
  // Name ranks: a shuffled permutation, some products without one (they sort last).
  const ranks = Array.from({ length: n }, (_, k) => rankOf(k)).sort(() => random() - 0.5);
  index.addRows(Array.from({ length: n }, (_, k) => row(k + 1, { name_rank: random() < 0.1 ? null : ranks[k] })));
  return index;
}

describe('facet counts from the per-id columns', () => {
  it('of a disjunctive set: the counts that its dimension reads, equal to the full set', () => {
    const index = build(3_000);
    const result = index.lexemeBitmap('ventil', false, '');
    const full = expected(index, result);
    const none = { brands: new Map(), classes: new Map(), leaves: new Map(), suppliers: new Map(), promo: 0 };
    const noPrice = { price: { min: null, max: null } };
    expect(facetSetOf(index, result, 'brand')).toEqual({ ...full, ...none, ...noPrice, brands: full.brands });
    expect(facetSetOf(index, result, 'class')).toEqual({ ...full, ...none, ...noPrice, classes: full.classes });
    expect(facetSetOf(index, result, 'supplier')).toEqual({ ...full, ...none, ...noPrice, suppliers: full.suppliers });
    expect(facetSetOf(index, result, 'price')).toEqual({ ...full, ...none, price: full.price });
    expect(facetSetOf(index, result, 'tree')).toEqual({
      ...full,
      ...none,
      ...noPrice,
      leaves: full.leaves,
      promo: full.promo,
      suppliers: full.suppliers,
    });
    expect(facetSetOf(index, result, 'f:EF000008')).toEqual({ ...full, ...none, ...noPrice });
    // The whole catalogue's set is kept whole, whatever it is asked for.
    expect(facetSetOf(index, index.all, 'brand')).toEqual(expected(index, index.all));
  });

  it('equal the bitmap intersections for results of every size, after changes and after a snapshot', () => {
    const index = build(3_000);
    const check = (ix: SearchIndex) => {
      for (const lexeme of ['rohr', 'ventil', 'kupfer']) {
        const result = ix.lexemeBitmap(lexeme, false, '');
        expect(facetSetOf(ix, result)).toEqual(expected(ix, result));
        // Both ways of counting; after a change the price order is not there and the price range reads the ids.
        expect(facetSetOf(ix, result, undefined, 'ids')).toEqual(expected(ix, result));
        expect(facetSetOf(ix, result, undefined, 'bitmaps')).toEqual(expected(ix, result));
        const small = new RoaringBitmap32([...result].filter(() => random() < 0.01));
        expect(facetSetOf(ix, small)).toEqual(expected(ix, small));
        expect(facetSetOf(ix, small, undefined, 'bitmaps')).toEqual(expected(ix, small));
      }
      expect(facetSetOf(ix, new RoaringBitmap32())).toEqual(expected(ix, new RoaringBitmap32()));
      expect(facetSetOf(ix, ix.all)).toEqual(expected(ix, ix.all));
    };
    check(index);
    // A product changes brand, leaf and class; one is removed; a new one arrives.
    index.applyChanges([5, 6, 3_001], [row(5, { brand_no: 9, leaf_no: 109, class_no: 19 }), row(3_001)]);
    check(index);
    const restored = SearchIndex.deserialize(index.serialize({}))!.index;
    // The name order is computed while the snapshot loads, not by the first name-sorted search.
    expect(restored.nameOrderReady).toBe(true);
    check(restored);
    expect(restored.brandOf).toEqual(index.brandOf.subarray(0, restored.brandOf.length));
    // Value keys too large for count arrays: counted by intersections.
    index.applyChanges([7], [row(7, { brand_no: 5_000_000 })]);
    check(index);
  });

  it('take the price range of larger results from the price orders of their combinations: exact with prices clustered by class, after changes and a snapshot', () => {
    // Each class has its own price band: a result within one class has its prices in one band of the whole order.
    const banded = (id: number) => {
      const classNo = pick([10, 11, 12, null]);
      const band = (classNo ?? 5) * 1_000;
      return row(id, { class_no: classNo, price_cents: random() < 0.05 ? null : band + Math.floor(random() * 1_000) });
    };
    let index = new SearchIndex();
    index.addRows(Array.from({ length: 20_000 }, (_, k) => banded(k + 1)));
    index.prepareOrders();
    const check = (ix: SearchIndex, walks: boolean) => {
      const walked = vi.spyOn(ix, 'priceRangeByCombos');
      for (const lexeme of ['rohr', 'ventil', 'hahn'])
        for (const classNo of [10, 11, 12]) {
          const result = RoaringBitmap32.and(ix.lexemeBitmap(lexeme, false, ''), ix.classes.get(classNo)!);
          expect(facetSetOf(ix, result, undefined, 'ids')).toEqual(expected(ix, result));
          expect(facetSetOf(ix, result, 'price', 'ids').price).toEqual(expected(ix, result).price);
          // Members without a price only, and one priced member among them.
          const unpriced = new RoaringBitmap32([...result].filter((id) => Number.isNaN(ix.price[id])));
          expect(facetSetOf(ix, unpriced, 'price', 'ids').price).toEqual({ min: null, max: null });
          const one = unpriced.clone();
          one.add(result.minimum());
          expect(facetSetOf(ix, one, 'price', 'ids').price).toEqual(expected(ix, one).price);
        }
      // The walks answered (not the fallback reading every id's price), as long as the price order is there.
      expect(walked.mock.results.some((r) => r.value !== null)).toBe(walks);
      walked.mockRestore();
    };
    check(index, true);
    // Products change class and price, some lose their price, one is removed, new ones are appended: no price order
    // until a price-sorted page needs it, then one with the new combinations.
    const moved = [...index.all].filter(() => random() < 0.05);
    index.applyChanges([...moved, 20_001, 20_002], [...moved.map((id) => banded(id)), banded(20_001), banded(20_002)]);
    index.removeIds([7]);
    check(index, false);
    index.pricePage(index.all, 0, 1, false);
    check(index, true);
    index = SearchIndex.deserialize(index.serialize({}))!.index;
    check(index, true);
  });

  it('count more combinations of brand, leaf and class than two bytes hold, also after a snapshot', () => {
    const index = new SearchIndex();
    index.addRows(Array.from({ length: 70_000 }, (_, k) => row(k + 1, { brand_no: k })));
    expect(index.comboOf).toBeInstanceOf(Int32Array);
    index.applyChanges([3], []);
    const restored = SearchIndex.deserialize(index.serialize({}))!.index;
    for (const ix of [index, restored]) {
      // Every product's combination is counted, the one whose combination widened the column too.
      expect(facetSetOf(ix, ix.all, undefined, 'ids')).toEqual(expected(ix, ix.all));
      const result = ix.lexemeBitmap('rohr', false, '');
      expect(facetSetOf(ix, result, undefined, 'ids')).toEqual(expected(ix, result));
    }
  });

  it('of the whole catalogue are kept until the index changes', () => {
    const index = build(500);
    const before = facetSetOf(index, index.all.clone());
    expect(facetSetOf(index, index.all.clone())).toBe(before); // kept
    index.applyChanges([1], [row(1, { brand_no: 42 })]);
    const after = facetSetOf(index, index.all.clone());
    expect(after.brands.get(42)).toBe(1);
    expect(after).toEqual(expected(index, index.all));
    index.applyChanges([2], []);
    expect(facetSetOf(index, index.all.clone()).total).toBe(499);
  });
});

/** A product of class 10: an alphanumeric value in slot 1, a numeric one in slot 2 (some without), no other slot. */
const classTenRow = (id: number) =>
  row(id, {
    class_no: 10,
    f: [pick([1, 2, 3, 70_000]), random() < 0.1 ? null : Math.floor(random() * 50), null, null, null, null, null, null],
  });

describe('feature statistics of a class', () => {
  // Class 10 has an alphanumeric feature in slot 1 and a numeric one in slot 2.
  const meta = {
    classes: new Map([
      [
        10,
        {
          slots: [
            { slot: 1, featureId: 'EF000001', featureNo: 1 },
            { slot: 2, featureId: 'EF000002', featureNo: 2 },
          ],
        },
      ],
    ]),
    features: new Map([
      ['EF000001', { kind: 'A' }],
      ['EF000002', { kind: 'N' }],
    ]),
  } as unknown as CatalogueMeta;
  const featured = classTenRow;

  it('from the whole class less the missing products equal those over the ids, also after changes', () => {
    const index = new SearchIndex();
    index.addRows(Array.from({ length: 2_000 }, (_, k) => (k % 2 ? featured(k + 1) : row(k + 1))));
    const members = index.classes.get(10)!;
    const check = () => {
      for (const share of [1, 0.99, 0.9, 0.6, 0.2, 0.01]) {
        const result = new RoaringBitmap32([...index.all].filter(() => share === 1 || random() < share));
        const byIds = featureStatsOf(index, meta, 10, result, 'ids');
        expect(featureStatsOf(index, meta, 10, result, 'complement')).toEqual(byIds);
        expect(featureStatsOf(index, meta, 10, result, 'bitmaps')).toEqual(byIds);
        expect(featureStatsOf(index, meta, 10, result)).toEqual(byIds);
      }
    };
    check();
    // The class's lowest and highest numeric values leave it, a product joins it: the kept statistics are renewed.
    const slot2 = (id: number) => index.slotValues[id * 8 + 1];
    const extremes = [...members].filter((id) => slot2(id) === 0 || slot2(id) === 49);
    index.applyChanges(extremes, [...extremes.map((id) => row(id)), featured(5_000)]);
    check();
    expect(featureStatsOf(index, meta, 10, index.all, 'complement').numeric.get('EF000002')).toEqual(
      featureStatsOf(index, meta, 10, index.all, 'ids').numeric.get('EF000002'),
    );
  });

  // Small class parts are read slot by slot, large ones (from 32,768 ids) every slot of an id in one pass.
  it.each([3_000, 60_000])(
    'equal plain counts over the ids of every slot, after changes and after a snapshot round trip (%i products)',
    (size) => {
      let index = new SearchIndex();
      // Class 10 with values in slots 1 and 2; products of other classes with values in every slot (not counted).
      const other = (id: number) => row(id, { class_no: 11, f: Array.from({ length: 8 }, () => random() * 100) });
      index.addRows(Array.from({ length: size }, (_, k) => (k % 3 ? featured(k + 1) : other(k + 1))));
      /** What a facet shows, read value by value from the rows' slots (no shared pass). */
      const plain = (result: Bitmap) => {
        const ids = [...result].filter((id) => index.classNoOf[id] === 10);
        const values = new Map<number, number>();
        let min = Infinity;
        let max = -Infinity;
        for (const id of ids) {
          const a = index.slotValues[id * 8];
          if (!Number.isNaN(a)) values.set(Math.round(a), (values.get(Math.round(a)) ?? 0) + 1);
          const n = index.slotValues[id * 8 + 1];
          if (!Number.isNaN(n)) [min, max] = [Math.min(min, n), Math.max(max, n)];
        }
        return {
          values: values.size ? new Map([['EF000001', values]]) : new Map(),
          numeric: min !== Infinity ? new Map([['EF000002', { min, max }]]) : new Map(),
        };
      };
      const check = () => {
        for (const share of [1, 0.9, 0.6, 0.2, 0.01]) {
          const result = new RoaringBitmap32([...index.all].filter(() => share === 1 || random() < share));
          const expected = plain(result);
          for (const way of ['ids', 'complement', 'bitmaps', undefined] as const)
            expect(featureStatsOf(index, meta, 10, result, way)).toEqual(expected);
        }
      };
      check();
      // Products leave the class, change their values, are removed; new ones are appended.
      const changed = [...index.classes.get(10)!].filter(() => random() < 0.2);
      index.applyChanges(changed, [...changed.filter((id) => id % 2).map((id) => featured(id)), featured(size + 1)]);
      index.removeIds([2, 5, 8]);
      check();
      index = SearchIndex.deserialize(index.serialize({}))!.index;
      check();
    },
  );
});

describe('feature and dimension filters', () => {
  // Class 10: an alphanumeric slot 1 and a numeric slot 2 (some without value); class 11: fractional values in every slot.
  const product = (id: number) =>
    id % 3
      ? classTenRow(id)
      : row(id, {
          class_no: pick([11, 12]),
          f: Array.from({ length: 8 }, () => (random() < 0.2 ? null : random() * 100)),
        });
  const tests: ((v: number) => boolean)[] = [
    (v) => v === 2 || v === 70_000,
    (v) => v >= 10 && v <= 20,
    (v) => v >= Math.fround(12.5),
    (v) => v < 0,
    (v) => v > -Infinity, // every value (a product without a value in the slot never passes: NaN)
  ];

  it("from the class summaries' value bitmaps equal reading every member's slot, after changes and after a snapshot round trip", () => {
    let index = new SearchIndex();
    index.addRows(Array.from({ length: 3_000 }, (_, k) => product(k + 1)));
    const check = () => {
      let nonEmpty = 0;
      for (const classNos of [[10], [11], [10, 11, 12], [13], []])
        for (const slot of [1, 2, 3, 8])
          for (const test of tests) {
            const byIds = index.slotFilterByIds(classNos, slot, test);
            expect([...index.slotFilter(classNos, slot, test)], `${classNos} f${slot}`).toEqual([...byIds]);
            if (byIds.size) nonEmpty++;
          }
      expect(nonEmpty).toBeGreaterThan(30);
    };
    index.slotFilter([10], 1, tests[0]); // the summaries are taken before the changes
    check();
    // Products change their values and classes, leave, and join.
    const changed = [...index.all].filter(() => random() < 0.2);
    index.applyChanges(changed, [...changed.filter((id) => id % 2).map(product), product(3_001), product(3_002)]);
    index.removeIds([4, 5, 7]);
    check();
    index = SearchIndex.deserialize(index.serialize({}))!.index;
    check();
  });

  /** A summary as plain data (bitmaps as id lists), to compare a kept one with one taken afresh. */
  const plain = (summary: ClassSummary | null) =>
    summary && {
      members: summary.members,
      slots: summary.slots.map(
        (slot) =>
          slot && {
            values: slot.values,
            min: slot.min,
            max: slot.max,
            atMin: [...slot.atMin],
            atMax: [...slot.atMax],
            exact: [...slot.exact],
            holders: slot.holders.map((h) => [...h]),
          },
      ),
    };
  /** The summary taken afresh from the class's members (the kept one dropped first). */
  const afresh = (index: SearchIndex, classNo: number) => {
    (index as unknown as { summaries: Map<number, ClassSummary> }).summaries.delete(classNo);
    return index.classSummary(classNo);
  };

  it('are kept up to date by the changes: equal to summaries taken afresh, the untouched ones left as they are', () => {
    const index = new SearchIndex();
    index.addRows(Array.from({ length: 1_500 }, (_, k) => product(k + 1)));
    const before = new Map([10, 11, 12].map((c) => [c, index.classSummary(c)!]));
    const members = new Map([10, 11, 12].map((c) => [c, before.get(c)!.members]));
    // A product of class 11 moves to class 12 with new values; class 10 is not touched.
    const moved = [...index.classes.get(11)!][0];
    index.applyChanges([moved], [row(moved, { class_no: 12, f: [1, 2, 3, 4, 5, 6, 7, 8] })]);
    expect(index.classSummary(10)).toBe(before.get(10));
    expect(index.classSummary(11)!.members).toBe(members.get(11)! - 1);
    expect(index.classSummary(12)!.members).toBe(members.get(12)! + 1);
    // Random changes: values change, products leave, join and are removed; a value's last product leaves (class 10's
    // slot 1 loses 70,000), a slot's last value goes (class 11's slot 8), a new class appears.
    for (let round = 0; round < 3; round++) {
      const kept = new Map([10, 11, 12].map((c) => [c, index.classSummary(c)]));
      const changed = [...index.all].filter(() => random() < 0.15);
      const rare = [...index.classes.get(10)!].filter((id) => index.slotValues[id * 8] === 70_000);
      const lastOf11 = [...index.classes.get(11)!].filter((id) => !Number.isNaN(index.slotValues[id * 8 + 7]));
      const ids = [...new Set([...changed, ...rare, ...(round === 1 ? lastOf11 : [])])];
      index.applyChanges(ids, [
        ...ids.filter((id) => id % 3 === 1).map(product),
        ...ids
          .filter((id) => id % 3 === 2)
          .map((id) => row(id, { class_no: 13, f: [5, null, null, null, null, null, null, null] })),
        product(2_000 + round),
      ]);
      index.removeIds([...index.all].filter(() => random() < 0.02));
      for (const c of [10, 11, 12]) {
        expect(index.classSummary(c), `class ${c} kept`).toBe(kept.get(c));
        expect(plain(index.classSummary(c)), `class ${c}, round ${round}`).toEqual(plain(afresh(index, c)));
      }
      for (const classNos of [[10], [11], [12], [13]])
        for (const test of tests)
          expect([...index.slotFilter(classNos, 1, test)]).toEqual([...index.slotFilterByIds(classNos, 1, test)]);
    }
    // A product with a value no other has (slot 1) and the only value of a slot (slot 3) joins and leaves class 10.
    const summary = index.classSummary(10)!;
    index.applyChanges([], [row(3_000, { class_no: 10, f: [99, 12.5, 7, null, null, null, null, null] })]);
    expect(summary.slots[0]!.exact).toContain(99);
    expect(summary.slots[2]!.exact).toEqual([7]);
    index.removeIds([3_000]);
    expect(summary.slots[0]!.exact).not.toContain(99);
    expect(summary.slots[2]).toBeNull();
    expect(index.classSummary(10)).toBe(summary);
    expect(plain(summary)).toEqual(plain(afresh(index, 10)));
  });
});

describe('rank order', () => {
  it('a page of a result whose ranks do not follow the ids: the best ids kept while reading equal sorting them all', () => {
    // Ranks shuffled (as after changes), some equal (ties by id).
    const index = build(4_000, (k) => Math.floor(k / 3));
    index.applyChanges([1], [row(1, { rank: 10_000 })]);
    const ranks = Array.from({ length: 4_001 }, () => Math.floor(random() * 500));
    for (let id = 1; id <= 4_000; id++) index.rank[id] = ranks[id];
    (index as unknown as { rankChecked: boolean }).rankChecked = false;
    expect(index.rankFollowsId).toBe(false);
    const result = index.lexemeBitmap('ventil', false, '');
    const sorted = [...result].sort((a, b) => index.rank[a] - index.rank[b] || a - b);
    for (const [offset, limit] of [
      [0, 25],
      [25, 25],
      [50, 10],
      [0, 1],
      [result.size - 5, 25],
    ])
      expect(index.rankPage(result, offset, limit), `${offset}+${limit}`).toEqual(sorted.slice(offset, offset + limit));
  });
});

describe('name order', () => {
  it.each([
    ['whole', (k: number) => k + 1],
    ['fractional and repeated', (k: number) => (k % 1_500) / 4],
  ])('(%s name ranks) equals sorting by name rank and id, products without one last, both directions', (_, rankOf) => {
    const index = build(4_000, rankOf);
    const key = (id: number) => (Number.isNaN(index.nameRank[id]) ? Infinity : index.nameRank[id]);
    // 0.11: early pages of a result over 16 times their end (the positions' top k), later ones through a bitmap.
    for (const share of [0.002, 0.02, 0.1, 0.11, 0.5]) {
      const result = new RoaringBitmap32([...index.all].filter(() => random() < share));
      const ascending = [...result].sort((a, b) => key(a) - key(b) || a - b);
      for (const [offset, limit] of [
        [0, 25],
        [10, 5],
        [result.size - 3, 25],
      ]) {
        expect(index.namePage(result, offset, limit, false)).toEqual(ascending.slice(offset, offset + limit));
        expect(index.namePage(result, offset, limit, true)).toEqual(
          [...ascending].reverse().slice(offset, offset + limit),
        );
      }
    }
  });
});

describe('tsvector text and the snapshot file', () => {
  it('reads lexemes with quotes, backslashes, weights and without positions as Postgres writes them', async () => {
    const { parseTsvector } = await import('./search-index.ts');
    expect([...parseTsvector(`'146':7A '200':19 'arco':2A,12B 'kuch':14C,28 'lavaro'`)]).toEqual([
      ['146', 1],
      ['200', 8],
      ['arco', 3],
      ['kuch', 12],
      ['lavaro', 8],
    ]);
    expect([...parseTsvector(`'it''s':1A 'a\\\\b':2B,3C 'x':4`)]).toEqual([
      ["it's", 1],
      ['a\\b', 6],
      ['x', 8],
    ]);
  });

  it('is written to a file and read back with the same content (the columns only up to the highest id)', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const index = build(5_000);
    index.feedPosition = '4711';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'search-index-')), 'snapshot.bin');
    index.writeSnapshot(file, { savedAt: 1 });
    const loaded = SearchIndex.readSnapshot(file)!;
    expect(loaded.meta).toEqual({ savedAt: 1 });
    const restored = loaded.index;
    expect(restored.feedPosition).toBe('4711');
    expect(restored.size).toBe(index.size);
    expect([...restored.lexemes.keys()].sort()).toEqual([...index.lexemes.keys()].sort());
    for (const [lexeme, postings] of index.lexemes)
      postings.forEach((b, w) =>
        expect(restored.lexemes.get(lexeme)![w]?.toArray() ?? null).toEqual(b?.toArray() ?? null),
      );
    for (const id of index.all) {
      expect(restored.rank[id]).toBe(index.rank[id]);
      expect(restored.price[id]).toBe(index.price[id]);
      expect(restored.brandOf[id]).toBe(index.brandOf[id]);
      expect(restored.classNoOf[id]).toBe(index.classNoOf[id]);
    }
    expect(restored.rank.length).toBe(index.all.maximum() + 1);
    // A snapshot of the former format (or a truncated one) is not loaded.
    fs.writeFileSync(file, Buffer.from('not a snapshot'));
    expect(SearchIndex.readSnapshot(file)).toBeNull();
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});

describe('word unions kept across searches', () => {
  /** Products whose vector has a lexeme passing `test` with one of the weights ('' = any), by parsing every row. */
  const expectedIds = (rows: Map<number, SearchRow>, test: (lexeme: string) => boolean, weights = '') =>
    [...rows.values()]
      .filter((r) =>
        [...parseTsvector(r.vec)].some(
          ([lexeme, bits]) => test(lexeme) && (!weights || [...weights].some((w) => bits & (1 << 'ABCD'.indexOf(w)))),
        ),
      )
      .map((r) => r.id)
      .sort((a, b) => a - b);
  const words = (...lexemes: string[]) => `'${lexemes.join("':1A '")}':1A`;

  it('are exact, answered from memory the second time, and made again after the index changed', () => {
    const rows = new Map<number, SearchRow>();
    const put = (r: SearchRow) => rows.set(r.id, r);
    for (let id = 1; id <= 600; id++)
      put(row(id, { vec: `'${pick(['ventil', 'ventilator', 'rohr'])}':1A '${pick(['kupfer', 'messing'])}':2C` }));
    const index = new SearchIndex();
    index.addRows([...rows.values()]);
    const ids = (text: string) => Array.from(index.evaluateText(text).toUint32Array());
    const prefix = (l: string) => l.startsWith('ventil');
    const group = (l: string) => l === 'kupfer' || l === 'rohr';

    expect(ids(`'ventil':*`)).toEqual(expectedIds(rows, prefix));
    expect(ids(`'ventil':*A`)).toEqual(expectedIds(rows, prefix, 'A'));
    expect(ids(`'kupfer' | 'rohr'`)).toEqual(expectedIds(rows, group));
    const made = index.wordBitmaps.made;
    const heldBefore = index.evaluateTextShared(`'ventil':*`);
    expect(ids(`'ventil':*`)).toEqual(expectedIds(rows, prefix));
    expect(ids(`'kupfer' | 'rohr'`)).toEqual(expectedIds(rows, group));
    expect(index.wordBitmaps.made).toBe(made); // all from memory
    expect(index.wordBitmaps.size).toBeGreaterThan(0);

    // A new product with a new lexeme of the prefix, a changed one, a removed one: the kept unions are dropped.
    const snapshot = Array.from(heldBefore.toUint32Array());
    put(row(601, { vec: words('ventilkegel', 'kupfer') }));
    const changed = [...rows.values()].find((r) => r.vec.startsWith("'rohr'"))!;
    put({ ...changed, vec: words('ventilator', 'kupfer') });
    const removed = [...rows.values()].find((r) => r.vec.startsWith("'ventil'"))!;
    rows.delete(removed.id);
    index.applyChanges([601, changed.id, removed.id], [rows.get(601)!, rows.get(changed.id)!]);
    expect(ids(`'ventil':*`)).toEqual(expectedIds(rows, prefix));
    expect(ids(`'ventil':*A`)).toEqual(expectedIds(rows, prefix, 'A'));
    expect(ids(`'kupfer' | 'rohr'`)).toEqual(expectedIds(rows, group));
    expect(ids(`'ventil':*A & ('kupfer' | 'rohr')`)).toEqual(
      expectedIds(rows, prefix, 'A').filter((id) => expectedIds(rows, group).includes(id)),
    );
    // A search that held a union across the change still reads the state it began with.
    expect(Array.from(heldBefore.toUint32Array())).toEqual(snapshot);
  });

  it('are bounded by bytes', () => {
    const index = build(3_000);
    const kept = new (index.wordBitmaps.constructor as new (maxBytes: number) => typeof index.wordBitmaps)(2_000);
    (index as unknown as { wordBitmaps: typeof kept }).wordBitmaps = kept;
    for (const text of [`'ventil' | 'rohr'`, `'rohr' | 'hahn'`, `'hahn' | 'ventil'`, `'kupfer' | 'messing'`])
      index.evaluateText(text);
    expect(kept.bytes).toBeLessThanOrEqual(2_000);
    expect(Array.from(index.evaluateText(`'ventil' | 'rohr'`).toUint32Array())).toEqual(
      Array.from(
        RoaringBitmap32.or(
          index.lexemeBitmap('ventil', false, ''),
          index.lexemeBitmap('rohr', false, ''),
        ).toUint32Array(),
      ),
    );
  });
});
