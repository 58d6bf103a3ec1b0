/**
 * Turns facet sets into the spec's filter options (filterOption): tree, brand, supplier
 * (wholesalers are among them), ETIM class, price slider and – for a single ETIM class – its features.
 */
import { SearchColumn, treeNodeAction, treeNodeSellerCatalogue, type SearchFilterOption } from '@shk/contracts';
import type { CatalogueMeta, TreeNodeMeta } from '../catalogue-meta.ts';
import type { FacetSet, FeatureStats } from './facets.ts';
import { describeColumn, type Dimension, type FilterSelection } from './search-request.ts';

export interface FacetSources {
  base: FacetSet;
  /** Sets without the selection of the key dimension. */
  byDimension: Map<Dimension, FacetSet>;
  features: { classNo: number; all: FeatureStats; byFeature: Map<string, FeatureStats> } | null;
}

/** Values shown per selection filter in the search response; FilterOptions returns all. */
const VALUES_IN_RESPONSE = 10;

type Value = SearchFilterOption['filterValue'][number];

/** German collation of display names (String.prototype.localeCompare(x, 'de') makes a collator per call). */
const german = new Intl.Collator('de');

/** Position of each brand, supplier and ETIM class in the display-name order of its list (ties: the list's order). */
interface NameRanks {
  brands: Map<number, number>;
  suppliers: Map<number, number>;
  classes: Map<number, number>;
}

/** `build` once per catalogue version (a meta object): names and the tree only change with it. */
function perCatalogueVersion<T>(build: (meta: CatalogueMeta) => T): (meta: CatalogueMeta) => T {
  const built = new WeakMap<CatalogueMeta, T>();
  return (meta) => {
    let value = built.get(meta);
    if (value === undefined) {
      value = build(meta);
      built.set(meta, value);
    }
    return value;
  };
}

const ranksOf = perCatalogueVersion((meta): NameRanks => ({
  brands: rankByName(meta.brands, (b) => b.name),
  suppliers: rankByName(meta.suppliers, (s) => s.name),
  classes: rankByName(meta.classes, (c) => c.description),
}));

function rankByName<T>(items: Map<number, T>, nameOf: (item: T) => string): Map<number, number> {
  const nos = [...items.keys()];
  const names = new Map(nos.map((no) => [no, nameOf(items.get(no)!)]));
  // Array.prototype.sort is stable: equal names keep the list's order.
  nos.sort((a, b) => german.compare(names.get(a)!, names.get(b)!));
  return new Map(nos.map((no, rank) => [no, rank]));
}

/**
 * A selection facet (brand, supplier, ETIM class) from the counted values only: values with a count and the selected
 * ones, most products first, then by display name (its rank); all of them for FilterOptions, else the first
 * VALUES_IN_RESPONSE and the selected ones behind them. Only the shown values become objects.
 */
function rankedOption(
  column: string,
  meta: CatalogueMeta,
  counts: Map<number, number>,
  selected: ReadonlySet<number>,
  ranks: Map<number, number>,
  describe: (no: number) => { value: string; displayName: string },
  allValues: boolean,
): SearchFilterOption | null {
  const nos: number[] = [];
  for (const [no, count] of counts) if ((count > 0 || selected.has(no)) && ranks.has(no)) nos.push(no);
  for (const no of selected) if (!counts.has(no) && ranks.has(no)) nos.push(no);
  if (!nos.length) return null;
  nos.sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || ranks.get(a)! - ranks.get(b)!);
  const value = (no: number): Value => ({
    ...describe(no),
    count: counts.get(no) ?? 0,
    selected: selected.has(no),
  });
  const filterValue: Value[] = [];
  for (let k = 0; k < nos.length; k++)
    if (allValues || k < VALUES_IN_RESPONSE || selected.has(nos[k])) filterValue.push(value(nos[k]));
  return choiceOption(column, meta, filterValue, nos.length);
}

/** A selection facet ('Auswahl') of the shown values out of `valueCount`. */
function choiceOption(
  column: string,
  meta: CatalogueMeta,
  filterValue: Value[],
  valueCount: number,
): SearchFilterOption {
  return {
    columnName: column,
    columnDescr: describeColumn(column, meta),
    filterType: 'Auswahl',
    filterValue,
    valueCount,
    sliderValues: null,
    selectedSliderValues: null,
    unit: null,
  };
}

function selectionOption(
  column: string,
  meta: CatalogueMeta,
  entries: { value: string; displayName: string; count: number; selected: boolean }[],
  allValues: boolean,
): SearchFilterOption | null {
  const values = entries
    .filter((e) => e.count > 0 || e.selected)
    .sort((a, b) => b.count - a.count || german.compare(a.displayName, b.displayName));
  if (!values.length) return null;
  const shown = allValues
    ? values
    : [...values.slice(0, VALUES_IN_RESPONSE), ...values.slice(VALUES_IN_RESPONSE).filter((v) => v.selected)];
  return choiceOption(
    column,
    meta,
    shown.map((v): Value => ({
      value: v.value,
      displayName: v.displayName,
      count: v.count,
      selected: v.selected,
    })),
    values.length,
  );
}

function sliderOption(
  column: string,
  meta: CatalogueMeta,
  range: { min: number | null; max: number | null },
  selected: { min: number | null; max: number | null } | undefined,
  unit: string | null,
): SearchFilterOption | null {
  if (range.min === null || range.max === null) {
    if (!selected) return null;
  }
  return {
    columnName: column,
    columnDescr: describeColumn(column, meta),
    filterType: 'Regler',
    filterValue: [],
    valueCount: 0,
    sliderValues: { minValue: range.min, maxValue: range.max },
    selectedSliderValues: selected ? { minValue: selected.min, maxValue: selected.max } : null,
    unit,
  };
}

const isSpecial = (node: TreeNodeMeta) =>
  node.elementId === treeNodeAction || node.elementId === treeNodeSellerCatalogue;

/**
 * Each tree node's product count, only for the nodes with products (a missing node has none): a leaf's count, Aktion's
 * the promotions', the seller catalogue's its supplier's, added up to their ancestors. Computed from the counted leaves
 * upwards, not over the whole tree per search. A special node's count is its own: what hangs below it is not counted.
 */
function treeCounts(meta: CatalogueMeta, set: FacetSet, sellerSupplierNo: number | null): Map<number, number> {
  const counts = new Map<number, number>();
  const addUpwards = (node: TreeNodeMeta, n: number) => {
    for (let up = parentOf(meta, node); up; up = parentOf(meta, up)) if (isSpecial(up)) return;
    for (let at: TreeNodeMeta | undefined = node; at; at = parentOf(meta, at))
      counts.set(at.no, (counts.get(at.no) ?? 0) + n);
  };
  for (const [leafNo, n] of set.leaves) {
    const leaf = meta.tree.get(leafNo);
    if (n && leaf?.type === 'leaf' && !isSpecial(leaf)) addUpwards(leaf, n);
  }
  const action = meta.treeByElementId.get(treeNodeAction);
  if (action && set.promo) addUpwards(action, set.promo);
  const sellerCatalogue = meta.treeByElementId.get(treeNodeSellerCatalogue);
  const own = sellerSupplierNo !== null ? (set.suppliers.get(sellerSupplierNo) ?? 0) : 0;
  if (sellerCatalogue && own) addUpwards(sellerCatalogue, own);
  return counts;
}

const parentOf = (meta: CatalogueMeta, node: TreeNodeMeta) =>
  node.parentNo !== null ? meta.tree.get(node.parentNo) : undefined;

/** Each tree node's children in their display order, per catalogue version. */
const sortedChildren = perCatalogueVersion((meta) => {
  const order = new Map<number, TreeNodeMeta[]>();
  for (const node of meta.tree.values())
    order.set(
      node.no,
      node.children.map((c) => meta.tree.get(c)!).sort((a, b) => a.sort - b.sort),
    );
  return order;
});

function treeOption(
  meta: CatalogueMeta,
  set: FacetSet,
  selectedIds: Set<string>,
  sellerSupplierNo: number | null,
): SearchFilterOption | null {
  if (!meta.root) return null;
  const counts = treeCounts(meta, set, sellerSupplierNo);
  counts.set(meta.root.no, set.total);
  const children = sortedChildren(meta);
  const values: Value[] = [];
  const walk = (node: TreeNodeMeta) => {
    const isSeller = node.elementId === treeNodeSellerCatalogue;
    if (isSeller && sellerSupplierNo === null) return;
    const count = counts.get(node.no) ?? 0;
    if (count === 0 && !selectedIds.has(node.elementId) && node !== meta.root) return;
    values.push({
      value: node.elementId,
      displayName: node.name,
      count,
      selected: selectedIds.has(node.elementId),
      parentId: node.parentNo !== null ? (meta.tree.get(node.parentNo)?.elementId ?? null) : null,
    });
    for (const child of children.get(node.no) ?? []) walk(child);
  };
  walk(meta.root);
  return {
    columnName: SearchColumn.tree,
    columnDescr: describeColumn(SearchColumn.tree, meta),
    filterType: 'Baum',
    filterValue: values,
    valueCount: values.length,
    sliderValues: null,
    selectedSliderValues: null,
    unit: null,
  };
}

const euros = (cents: number | null) => (cents === null ? null : cents / 100);

export function buildFilterOptions(
  meta: CatalogueMeta,
  selection: FilterSelection,
  sources: FacetSources,
  sellerSupplierNo: number | null,
  options: { allValues: boolean },
): SearchFilterOption[] {
  const setFor = (dim: Dimension) => sources.byDimension.get(dim) ?? sources.base;
  const out: (SearchFilterOption | null)[] = [];
  out.push(treeOption(meta, setFor('tree'), new Set(selection.tree?.elementIds ?? []), sellerSupplierNo));

  const ranks = ranksOf(meta);
  out.push(
    rankedOption(
      SearchColumn.brand,
      meta,
      setFor('brand').brands,
      new Set(selection.brand ?? []),
      ranks.brands,
      (no) => {
        const name = meta.brands.get(no)!.name;
        return { value: name, displayName: name };
      },
      options.allValues,
    ),
  );

  // One supplier facet ('Lieferant'): a 'Großhändler' facet (wholesalers) listed the same suppliers with the same
  // counts again. A wholesalers filter (older links) is still applied and shown among the active filters.
  out.push(
    rankedOption(
      SearchColumn.supplierId,
      meta,
      setFor('supplier').suppliers,
      new Set(selection.supplier ?? []),
      ranks.suppliers,
      (no) => {
        const s = meta.suppliers.get(no)!;
        return { value: s.bp, displayName: s.name };
      },
      options.allValues,
    ),
  );

  out.push(
    rankedOption(
      SearchColumn.etimClass,
      meta,
      setFor('class').classes,
      new Set(selection.class ?? []),
      ranks.classes,
      (no) => {
        const c = meta.classes.get(no)!;
        return { value: c.id, displayName: c.description };
      },
      options.allValues,
    ),
  );

  const price = setFor('price').price;
  out.push(
    sliderOption(
      SearchColumn.price,
      meta,
      { min: euros(price.min), max: euros(price.max) },
      selection.price ? { min: euros(selection.price.min), max: euros(selection.price.max) } : undefined,
      'EUR',
    ),
  );

  if (sources.features) {
    const cls = meta.classes.get(sources.features.classNo);
    for (const slot of cls?.slots ?? []) {
      const feature = meta.features.get(slot.featureId)!;
      const stats = sources.features.byFeature.get(feature.id) ?? sources.features.all;
      const selected = selection.features.get(feature.id);
      if (feature.kind === 'N') {
        const range = stats.numeric.get(feature.id) ?? { min: null, max: null };
        out.push(
          sliderOption(
            feature.id,
            meta,
            range,
            selected?.kind === 'N' ? { min: selected.min, max: selected.max } : undefined,
            feature.unitDescription,
          ),
        );
      } else {
        const chosen = new Set(selected?.kind === 'A' ? selected.valueNos : []);
        const counts = stats.values.get(feature.id) ?? new Map<number, number>();
        const valueNos = new Set([...counts.keys(), ...chosen]);
        out.push(
          selectionOption(
            feature.id,
            meta,
            [...valueNos]
              .filter((no) => meta.values.has(no))
              .map((no) => ({
                value: meta.values.get(no)!.id,
                displayName: meta.values.get(no)!.description,
                count: counts.get(no) ?? 0,
                selected: chosen.has(no),
              })),
            options.allValues,
          ),
        );
      }
    }
  }
  return out.filter((o): o is SearchFilterOption => o !== null);
}
