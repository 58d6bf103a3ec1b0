/**
 * The search filter list (buyer-side.md §3 "Search filter", §5 "Search: filter changes") as one rule for the API, the
 * SPA and the /suche URL, which carries exactly this list (base64 JSON): no second filter shape anywhere.
 */
import { treeRoot } from './limits.ts';
import { SearchColumn } from './search-columns.ts';
import type { SearchFilter } from './schemas/catalogue.ts';

/** Element ids of the product tree: the root SHKMARKET and its nodes SHKMARKET_1, SHKMARKET_1_2, … (≤ 6 levels). */
export const treeElementIdPattern = /^SHKMARKET(_\d{1,4}){0,6}$/;

/** The selected values of a selection or tree filter. */
export const filterValuesOf = (filter: SearchFilter | undefined): string[] =>
  (filter?.filterValue ?? []).map((v) => v.value);

/** A selection filter ('Auswahl') on one column. */
export const selectionFilter = (columnName: string, values: readonly string[]): SearchFilter => ({
  columnName,
  filterType: 'Auswahl',
  filterValue: values.map((value) => ({ value })),
});

/** The tree filter ('Baum') on one node. */
export const treeFilter = (elementId: string): SearchFilter => ({
  columnName: SearchColumn.tree,
  filterType: 'Baum',
  filterValue: [{ value: elementId }],
});

/** A slider filter ('Regler'). */
export const sliderFilter = (columnName: string, minValue: number | null, maxValue: number | null): SearchFilter => ({
  columnName,
  filterType: 'Regler',
  sliderValues: { minValue, maxValue },
});

/**
 * Spec §5: selection filters keep their trimmed, distinct, non-empty values and are removed without any; sliders with
 * neither min nor max are removed; a tree filter containing the root id means the whole catalogue (no tree
 * restriction) and is removed. Display fields (columnDescr, displayName, count) are not part of the state.
 */
export function normaliseFilterList(filters: readonly SearchFilter[]): SearchFilter[] {
  return filters.flatMap((f): SearchFilter[] => {
    if (f.filterType === 'Regler') {
      const min = f.sliderValues?.minValue ?? null;
      const max = f.sliderValues?.maxValue ?? null;
      return min === null && max === null ? [] : [sliderFilter(f.columnName, min, max)];
    }
    const values = [...new Set(filterValuesOf(f).map((v) => v.trim()))].filter(Boolean);
    if (!values.length || (f.filterType === 'Baum' && values.includes(treeRoot))) return [];
    return [{ columnName: f.columnName, filterType: f.filterType, filterValue: values.map((value) => ({ value })) }];
  });
}
