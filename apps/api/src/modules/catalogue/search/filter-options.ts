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

function selectionOption(
  column: string,
  meta: CatalogueMeta,
  entries: { value: string; displayName: string; count: number; selected: boolean }[],
  allValues: boolean,
): SearchFilterOption | null {
  const values = entries
    .filter((e) => e.count > 0 || e.selected)
    .sort((a, b) => b.count - a.count || a.displayName.localeCompare(b.displayName, 'de'));
  if (!values.length) return null;
  const shown = allValues
    ? values
    : [...values.slice(0, VALUES_IN_RESPONSE), ...values.slice(VALUES_IN_RESPONSE).filter((v) => v.selected)];
  return {
    columnName: column,
    columnDescr: describeColumn(column, meta),
    filterType: 'Auswahl',
    filterValue: shown.map((v): Value => ({
      value: v.value,
      displayName: v.displayName,
      count: v.count,
      selected: v.selected,
    })),
    valueCount: values.length,
    sliderValues: null,
    selectedSliderValues: null,
    unit: null,
  };
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

function treeOption(
  meta: CatalogueMeta,
  set: FacetSet,
  selectedIds: Set<string>,
  sellerSupplierNo: number | null,
): SearchFilterOption | null {
  if (!meta.root) return null;
  const counts = new Map<number, number>();
  const countOf = (node: TreeNodeMeta): number => {
    let n: number;
    if (node.elementId === treeNodeAction) n = set.promo;
    else if (node.elementId === treeNodeSellerCatalogue)
      n = sellerSupplierNo !== null ? (set.suppliers.get(sellerSupplierNo) ?? 0) : 0;
    else if (node.type === 'leaf') n = set.leaves.get(node.no) ?? 0;
    else n = node.children.reduce((sum, c) => sum + countOf(meta.tree.get(c)!), 0);
    counts.set(node.no, n);
    return n;
  };
  countOf(meta.root);
  counts.set(meta.root.no, set.total);
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
    [...node.children]
      .map((c) => meta.tree.get(c)!)
      .sort((a, b) => a.sort - b.sort)
      .forEach(walk);
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

  const brandSel = new Set(selection.brand ?? []);
  out.push(
    selectionOption(
      SearchColumn.brand,
      meta,
      [...meta.brands.values()].map((b) => ({
        value: b.name,
        displayName: b.name,
        count: setFor('brand').brands.get(b.no) ?? 0,
        selected: brandSel.has(b.no),
      })),
      options.allValues,
    ),
  );

  // One supplier facet ('Lieferant'): a 'Großhändler' facet (wholesalers) listed the same suppliers with the same
  // counts again. A wholesalers filter (older links) is still applied and shown among the active filters.
  const supplierSel = new Set(selection.supplier ?? []);
  out.push(
    selectionOption(
      SearchColumn.supplierId,
      meta,
      [...meta.suppliers.values()].map((s) => ({
        value: s.bp,
        displayName: s.name,
        count: setFor('supplier').suppliers.get(s.no) ?? 0,
        selected: supplierSel.has(s.no),
      })),
      options.allValues,
    ),
  );

  const classSel = new Set(selection.class ?? []);
  out.push(
    selectionOption(
      SearchColumn.etimClass,
      meta,
      [...meta.classes.values()].map((c) => ({
        value: c.id,
        displayName: c.description,
        count: setFor('class').classes.get(c.no) ?? 0,
        selected: classSel.has(c.no),
      })),
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
