/**
 * The filter options are built from the counted values only (no object per catalogue brand, supplier or class per
 * search, no collator per comparison): the answer must be the same as sorting every catalogue value by count and
 * German name, as the options were built before.
 */
import { describe, expect, it } from 'vitest';
import { SearchColumn, treeNodeAction } from '@shk/contracts';
import type { CatalogueMeta, TreeNodeMeta } from '../catalogue-meta.ts';
import type { FacetSet } from './facets.ts';
import { buildFilterOptions } from './filter-options.ts';
import type { FilterSelection } from './search-request.ts';

// Umlauts, case, equal names (listed in another order than their numbers) and equal counts.
const BRAND_NAMES = ['Zeta', 'Ärger', 'abc', 'Öko', 'Brand', 'Same', 'Same', 'Oslo', 'zulu', 'Äther', 'Beta', 'Alpha'];
const brandNos = [12, 3, 7, 1, 9, 11, 2, 5, 4, 10, 6, 8];

function metaOf(): CatalogueMeta {
  const brands = new Map(BRAND_NAMES.map((name, k) => [brandNos[k], { no: brandNos[k], name, manufacturerId: 'm' }]));
  const supplier = (no: number, name: string) => ({
    no,
    bp: `10000${no}`,
    name,
    organisationType: 1,
    requiredOnboardingForm: false,
    hideAdditionalInfo: false,
    hideGrossPrice: false,
  });
  const suppliers = new Map([
    [1, supplier(1, 'Überland GmbH')],
    [2, supplier(2, 'Ulm AG')],
    [3, supplier(3, 'ulm ag')],
  ]);
  const node = (no: number, parentNo: number | null, type: TreeNodeMeta['type'], sort: number, children: number[]) => ({
    no,
    elementId: `SHK_${no}`,
    parentNo,
    type,
    name: `Knoten ${no}`,
    sort,
    children,
    leafNos: [],
  });
  const tree = new Map<number, TreeNodeMeta>([
    [1, node(1, null, 'root', 0, [2, 3, 9])],
    [2, node(2, 1, 'node', 2, [4, 5, 8])],
    [3, node(3, 1, 'node', 1, [6])],
    [4, node(4, 2, 'leaf', 9, [])],
    [5, node(5, 2, 'leaf', 3, [])],
    [6, node(6, 3, 'leaf', 1, [])],
    [8, node(8, 2, 'leaf', 4, [])],
    [9, { ...node(9, 1, 'leaf', 0, []), elementId: treeNodeAction }],
  ]);
  return {
    version: 1,
    productCount: 100,
    brands,
    brandNoByName: new Map(),
    manufacturers: new Map(),
    suppliers,
    supplierByBp: new Map([...suppliers.values()].map((s) => [s.bp, s])),
    classes: new Map([
      [1, { no: 1, id: 'EC000001', description: 'Öl', slots: [] }],
      [2, { no: 2, id: 'EC000002', description: 'Ofen', slots: [] }],
    ]),
    classNoById: new Map(),
    features: new Map(),
    values: new Map(),
    valueNoById: new Map(),
    tree,
    treeByElementId: new Map([...tree.values()].map((n) => [n.elementId, n])),
    root: tree.get(1)!,
    units: new Map(),
  };
}

const set = (brands: [number, number][]): FacetSet => ({
  total: 40,
  brands: new Map(brands),
  classes: new Map([
    [1, 5],
    [2, 5],
  ]),
  leaves: new Map([
    [4, 3],
    [5, 3],
    [6, 1],
    [8, 0],
    [9, 5],
  ]),
  suppliers: new Map([
    [3, 2],
    [1, 2],
    [2, 2],
  ]),
  promo: 2,
  price: { min: 100, max: 900 },
});

/** The brand facet as it was built: every catalogue brand, sorted by count and localeCompare(…, 'de'). */
function brandsAsBefore(meta: CatalogueMeta, counts: Map<number, number>, selected: number[], allValues: boolean) {
  const values = [...meta.brands.values()]
    .map((b) => ({
      value: b.name,
      displayName: b.name,
      count: counts.get(b.no) ?? 0,
      selected: selected.includes(b.no),
    }))
    .filter((e) => e.count > 0 || e.selected)
    .sort((a, b) => b.count - a.count || a.displayName.localeCompare(b.displayName, 'de'));
  return {
    filterValue: allValues ? values : [...values.slice(0, 10), ...values.slice(10).filter((v) => v.selected)],
    valueCount: values.length,
  };
}

describe('filter options', () => {
  const meta = metaOf();
  // Equal counts for most, one brand without products, one behind the first ten.
  const counts: [number, number][] = [
    [1, 4],
    [2, 4],
    [3, 4],
    [4, 4],
    [5, 2],
    [6, 4],
    [7, 4],
    [8, 1],
    [9, 4],
    [10, 4],
    [11, 4],
  ];
  const selection = (brand: number[]): FilterSelection => ({ brand, features: new Map() });

  for (const allValues of [false, true])
    for (const selected of [[], [8], [12, 8], [12]])
      it(`lists the brands in the same order as every brand sorted by count and German name (all values: ${allValues}, selected: ${selected.join(',') || '–'})`, () => {
        const options = buildFilterOptions(
          meta,
          selection(selected),
          { base: set(counts), byDimension: new Map(), features: null },
          null,
          { allValues },
        );
        const brand = options.find((o) => o.columnName === SearchColumn.brand)!;
        expect({ filterValue: brand.filterValue, valueCount: brand.valueCount }).toEqual(
          brandsAsBefore(meta, new Map(counts), selected, allValues),
        );
      });

  it('orders equal counts of suppliers and classes by their German names, the tree by its sort order with its counts summed up', () => {
    const options = buildFilterOptions(
      meta,
      selection([]),
      { base: set(counts), byDimension: new Map(), features: null },
      null,
      { allValues: false },
    );
    const names = (column: string) =>
      options.find((o) => o.columnName === column)!.filterValue.map((v) => v.displayName);
    expect(names(SearchColumn.supplierId)).toEqual(['Überland GmbH', 'ulm ag', 'Ulm AG']);
    expect(names(SearchColumn.etimClass)).toEqual(['Ofen', 'Öl']);
    // Aktion counts the promotions (not its leaf entry); a leaf without products is left out.
    expect(
      options.find((o) => o.columnName === SearchColumn.tree)!.filterValue.map((v) => [v.value, v.count, v.parentId]),
    ).toEqual([
      ['SHK_1', 40, null],
      [treeNodeAction, 2, 'SHK_1'],
      ['SHK_3', 1, 'SHK_1'],
      ['SHK_6', 1, 'SHK_3'],
      ['SHK_2', 6, 'SHK_1'],
      ['SHK_5', 3, 'SHK_2'],
      ['SHK_4', 3, 'SHK_2'],
    ]);
  });
});
