import {
  filterValuesOf,
  limits,
  normaliseFilterList,
  SearchColumn,
  selectionFilter,
  sliderFilter,
  SortColumn,
  treeElementIdPattern,
  treeFilter,
  type SearchFilter,
} from '@shk/contracts';
import type { SearchRequest } from '../../api/catalogue';
import { decodeFilters, searchUrl } from '../../ui/search-url';

export type SortKey = 'recommended' | 'nameAsc' | 'nameDesc' | 'priceAsc' | 'priceDesc';

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
  { value: 'priceAsc', label: 'Preis aufsteigend' },
  { value: 'priceDesc', label: 'Preis absteigend' },
];

/** Sellers see only their own offers' prices: no sorting by price for them (the API refuses it too). */
export const isPriceSort = (sort: SortKey) => sort === 'priceAsc' || sort === 'priceDesc';

const sortOf = (column: string | null, order: string | null): SortKey => {
  const desc = order?.toLowerCase() === 'desc';
  if (column === SortColumn.name) return desc ? 'nameDesc' : 'nameAsc';
  if (column === SortColumn.price) return desc ? 'priceDesc' : 'priceAsc';
  return 'recommended';
};

/** The API's sort column and order of a sort key. */
function sortRequest(sort: SortKey): { column: string; order: 'asc' | 'desc' } {
  const order = sort === 'nameDesc' || sort === 'priceDesc' ? 'desc' : 'asc';
  if (sort === 'nameAsc' || sort === 'nameDesc') return { column: SortColumn.name, order };
  if (isPriceSort(sort)) return { column: SortColumn.price, order };
  return { column: SortColumn.recommended, order };
}

/** Reads /suche's query; broken values fall back to defaults (a broken filter value shows the unfiltered search). */
export function readSearchState(params: URLSearchParams): SearchState {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  let filters = decodeFilters(params.get('filters'));
  // ?id=<tree element id> opens a category (e.g. links from the home page's tree).
  const id = params.get('id');
  if (id && treeElementIdPattern.test(id) && !filters.some((f) => f.columnName === SearchColumn.tree))
    filters = normaliseFilterList([...filters, treeFilter(id)]);
  return {
    term: (params.get('term') ?? '').trim(),
    page: Number.isFinite(page) ? Math.min(Math.max(page, 1), limits.searchMaxPages) : 1,
    filters: wholesalersAsSuppliers(filters),
    sort: sortOf(params.get('sortColumn'), params.get('sortOrder')),
  };
}

/**
 * The search offers one supplier facet ('Lieferant'; the wholesalers are among its suppliers): a wholesalers filter
 * of a link ('Sortiment anzeigen' on 'Meine Lieferanten', older addresses) is shown and kept as a supplier filter.
 */
function wholesalersAsSuppliers(filters: SearchFilter[]): SearchFilter[] {
  const wholesalers = filters.find((f) => f.columnName === SearchColumn.wholesalers);
  if (!wholesalers) return filters;
  const values = [...new Set([...selectedValues(filters, SearchColumn.supplierId), ...filterValuesOf(wholesalers)])];
  const rest = filters.filter(
    (f) => f.columnName !== SearchColumn.wholesalers && f.columnName !== SearchColumn.supplierId,
  );
  return normaliseFilterList([...rest, selectionFilter(SearchColumn.supplierId, values)]);
}

/** '/suche?term=…&page=…&filters=…&sortColumn=…&sortOrder=…' */
export function searchStateUrl(state: SearchState): string {
  return searchUrl({
    term: state.term,
    page: state.page,
    filters: state.filters,
    sort: state.sort === 'recommended' ? undefined : sortRequest(state.sort),
  });
}

/** The request body of POST /v1/Product/Search for a state. */
export function searchRequestOf(state: SearchState): SearchRequest {
  return {
    page: state.page,
    pageSize: limits.searchPageSize,
    searchTerm: state.term,
    filter: state.filters,
    sortColumn: sortRequest(state.sort).column,
    sortOrder: sortRequest(state.sort).order,
  };
}

// ——— pagination ———

/** The page numbers around the current page: `window` of them (spec: 3 on mobile, 5 otherwise). */
export function pageWindow(current: number, pageCount: number, window: number): number[] {
  const count = Math.min(pageCount, window);
  let first = Math.max(1, current - Math.floor(count / 2));
  first = Math.min(first, pageCount - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

// ——— filter changes (each returns a list normalised by the contracts' rule, spec §5) ———

export const selectedValues = (filters: SearchFilter[], column: string): string[] =>
  filterValuesOf(filters.find((f) => f.columnName === column));

/** Adds or removes one value of a selection filter. */
export function toggleValue(filters: SearchFilter[], column: string, value: string, on: boolean): SearchFilter[] {
  const current = selectedValues(filters, column);
  const values = on ? [...current.filter((v) => v !== value), value] : current.filter((v) => v !== value);
  const rest = filters.filter((f) => f.columnName !== column);
  return normaliseFilterList([...rest, selectionFilter(column, values)]);
}

/** Sets (or with both null removes) a slider filter. */
export function setSlider(
  filters: SearchFilter[],
  column: string,
  minValue: number | null,
  maxValue: number | null,
): SearchFilter[] {
  const rest = filters.filter((f) => f.columnName !== column);
  return normaliseFilterList([...rest, sliderFilter(column, minValue, maxValue)]);
}

/** Opens a category: the tree filter is replaced; the root removes it. */
export function setTree(filters: SearchFilter[], elementId: string): SearchFilter[] {
  const rest = filters.filter((f) => f.columnName !== SearchColumn.tree);
  return normaliseFilterList([...rest, treeFilter(elementId)]);
}

export const removeColumn = (filters: SearchFilter[], column: string) => filters.filter((f) => f.columnName !== column);
