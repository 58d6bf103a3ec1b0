import { treeFilter, treeNodeSellerCatalogue, type SearchFilter } from '@shk/contracts';

/*
 * Building search links needs no schema; reading a `filters` value (search-url.ts, `decodeFilters`) does. Kept
 * apart so the shell's menu links do not load zod into the first page.
 */

/** UTF-8 safe base64 of the filter list's JSON (spec: base64 JSON, then URL-encoded by URLSearchParams). */
export function encodeFilters(filters: readonly SearchFilter[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(filters));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * '/suche?term=…&page=1&filters=…&sortColumn=…&sortOrder=…' – the one place the search URL is built (page is
 * one-based; omitted parts stay out of the URL).
 */
export function searchUrl(
  options: {
    term?: string;
    page?: number;
    filters?: readonly SearchFilter[];
    sort?: { column: string; order: 'asc' | 'desc' };
  } = {},
): string {
  const params = new URLSearchParams();
  if (options.term) params.set('term', options.term);
  if (options.page !== undefined) params.set('page', String(Math.max(1, options.page)));
  if (options.filters?.length) params.set('filters', encodeFilters(options.filters));
  if (options.sort) {
    params.set('sortColumn', options.sort.column);
    params.set('sortOrder', options.sort.order);
  }
  const query = params.toString();
  return query ? `/suche?${query}` : '/suche';
}

/** The seller's catalogue: search pre-filtered to tree node SHKMARKET_11. */
export const sellerCatalogueUrl = () => searchUrl({ filters: [treeFilter(treeNodeSellerCatalogue)] });
