import { limits, SortColumn, treeRoot } from '@shk/contracts';
import type { SearchRequest } from '../../api/catalogue';
import { decodeFilters, searchUrl, TREE_COLUMN, treeFilter, type SearchFilter } from '../../ui/search-url';

export type SortKey = 'recommended' | 'nameAsc' | 'nameDesc';

/** Everything /suche keeps in its URL: term, page (one-based), filters, sort. */
export interface SearchState {
  term: string;
  page: number;
  filters: SearchFilter[];
  sort: SortKey;
}

export const sortOptions: { value: SortKey; label: string }[] = [
  { value: 'recommended', label: 'Empfohlen' },
  { value: 'nameAsc', label: 'Name A–Z' },
  { value: 'nameDesc', label: 'Name Z–A' },
];

const sortOf = (column: string | null, order: string | null): SortKey => {
  if (column !== SortColumn.name) return 'recommended';
  return order?.toLowerCase() === 'desc' ? 'nameDesc' : 'nameAsc';
};

/** A filter list as it may come from a (hand-edited) URL: only well-formed entries survive. */
function sanitise(filters: unknown[]): SearchFilter[] {
  return filters.flatMap((f): SearchFilter[] => {
    if (typeof f !== 'object' || f === null) return [];
    const { columnName, filterType, filterValues, sliderValues } = f as Record<string, unknown>;
    if (typeof columnName !== 'string' || !['Auswahl', 'Baum', 'Regler'].includes(filterType as string)) return [];
    const values = Array.isArray(filterValues)
      ? filterValues.filter((v): v is string => typeof v === 'string')
      : undefined;
    const slider =
      typeof sliderValues === 'object' && sliderValues !== null ? (sliderValues as Record<string, unknown>) : undefined;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    return [
      {
        columnName,
        filterType: filterType as SearchFilter['filterType'],
        ...(values ? { filterValues: values } : {}),
        ...(slider ? { sliderValues: { minValue: num(slider.minValue), maxValue: num(slider.maxValue) } } : {}),
      },
    ];
  });
}

/** Reads /suche's query; broken values fall back to defaults (a broken filter value shows the unfiltered search). */
export function readSearchState(params: URLSearchParams): SearchState {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  let filters = normaliseFilters(sanitise(decodeFilters(params.get('filters'))));
  // ?id=<tree element id> opens a category (e.g. links from the home page's tree).
  const id = params.get('id');
  if (id && /^SHKMARKET(_\d+)*$/.test(id) && !filters.some((f) => f.columnName === TREE_COLUMN))
    filters = [...filters, treeFilter(id)];
  return {
    term: (params.get('term') ?? '').trim(),
    page: Number.isFinite(page) ? Math.min(Math.max(page, 1), limits.searchMaxPages) : 1,
    filters,
    sort: sortOf(params.get('sortColumn'), params.get('sortOrder')),
  };
}

/** '/suche?term=…&page=…&filters=…&sortColumn=…&sortOrder=…' */
export function searchStateUrl(state: SearchState): string {
  return searchUrl({
    term: state.term,
    page: state.page,
    filters: state.filters,
    sort:
      state.sort === 'recommended'
        ? undefined
        : { column: SortColumn.name, order: state.sort === 'nameDesc' ? 'desc' : 'asc' },
  });
}

/**
 * Spec §5: selection filters with empty values and sliders with neither min nor max are removed; a tree
 * filter containing the root id replaces the other tree values (and means: no tree restriction).
 */
export function normaliseFilters(filters: SearchFilter[]): SearchFilter[] {
  return filters.flatMap((f): SearchFilter[] => {
    if (f.filterType === 'Regler') {
      const min = f.sliderValues?.minValue ?? null;
      const max = f.sliderValues?.maxValue ?? null;
      return min === null && max === null
        ? []
        : [{ columnName: f.columnName, filterType: 'Regler', sliderValues: { minValue: min, maxValue: max } }];
    }
    const values = [...new Set((f.filterValues ?? []).map((v) => v.trim()).filter(Boolean))];
    if (f.filterType === 'Baum' && values.includes(treeRoot)) return [];
    return values.length ? [{ columnName: f.columnName, filterType: f.filterType, filterValues: values }] : [];
  });
}

/** The request body of POST /v1/Product/Search for a state. */
export function searchRequestOf(state: SearchState): SearchRequest {
  return {
    page: state.page,
    pageSize: limits.searchPageSize,
    searchTerm: state.term,
    filter: toApiFilters(state.filters),
    sortColumn: state.sort === 'recommended' ? SortColumn.recommended : SortColumn.name,
    sortOrder: state.sort === 'nameDesc' ? 'desc' : 'asc',
  };
}

export const toApiFilters = (filters: SearchFilter[]): NonNullable<SearchRequest['filter']> =>
  filters.map((f) =>
    f.filterType === 'Regler'
      ? {
          columnName: f.columnName,
          filterType: f.filterType,
          sliderValues: { minValue: f.sliderValues?.minValue ?? null, maxValue: f.sliderValues?.maxValue ?? null },
        }
      : {
          columnName: f.columnName,
          filterType: f.filterType,
          filterValue: (f.filterValues ?? []).map((value) => ({ value })),
        },
  );

// ——— pagination ———

/** The page numbers around the current page: `window` of them (spec: 3 on mobile, 5 otherwise). */
export function pageWindow(current: number, pageCount: number, window: number): number[] {
  const count = Math.min(pageCount, window);
  let first = Math.max(1, current - Math.floor(count / 2));
  first = Math.min(first, pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

// ——— filter changes (each returns a normalised list) ———

export const selectedValues = (filters: SearchFilter[], column: string): string[] =>
  filters.find((f) => f.columnName === column)?.filterValues ?? [];

/** Adds or removes one value of a selection filter. */
export function toggleValue(filters: SearchFilter[], column: string, value: string, on: boolean): SearchFilter[] {
  const current = selectedValues(filters, column);
  const values = on ? [...current.filter((v) => v !== value), value] : current.filter((v) => v !== value);
  const rest = filters.filter((f) => f.columnName !== column);
  return normaliseFilters([...rest, { columnName: column, filterType: 'Auswahl', filterValues: values }]);
}

/** Sets (or with both null removes) a slider filter. */
export function setSlider(
  filters: SearchFilter[],
  column: string,
  minValue: number | null,
  maxValue: number | null,
): SearchFilter[] {
  const rest = filters.filter((f) => f.columnName !== column);
  return normaliseFilters([
    ...rest,
    { columnName: column, filterType: 'Regler', sliderValues: { minValue, maxValue } },
  ]);
}

/** Opens a category: the tree filter is replaced; the root removes it. */
export function setTree(filters: SearchFilter[], elementId: string): SearchFilter[] {
  const rest = filters.filter((f) => f.columnName !== TREE_COLUMN);
  return normaliseFilters([...rest, treeFilter(elementId)]);
}

export const removeColumn = (filters: SearchFilter[], column: string) => filters.filter((f) => f.columnName !== column);
