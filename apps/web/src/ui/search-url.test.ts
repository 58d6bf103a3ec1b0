import { describe, expect, it } from 'vitest';
import { selectionFilter, treeFilter } from '@shk/contracts';
import { decodeFilters, encodeFilters, searchUrl, sellerCatalogueUrl } from './search-url';

describe('search URL state', () => {
  it("encodes the API's filter list (spec: Search filter) as base64 JSON, URL-encoded in the filters parameter", () => {
    const url = new URL(sellerCatalogueUrl(), 'http://portal');
    expect(url.pathname).toBe('/suche');
    const json = atob(url.searchParams.get('filters')!);
    expect(JSON.parse(json)).toEqual([
      { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_11' }] },
    ]);
  });

  it("escapes base64's '+', '/' and '=' in the query string", () => {
    const filters = [selectionFilter('brandname', ['ü?>ab'])];
    expect(encodeFilters(filters)).toMatch(/[+/=]/);
    const raw = searchUrl({ filters }).split('filters=')[1];
    expect(raw).not.toMatch(/[+/=]/);
    expect(decodeFilters(new URL(searchUrl({ filters }), 'http://p').searchParams.get('filters'))).toEqual(filters);
  });

  it('round-trips umlauts and tolerates garbage', () => {
    const filters = [selectionFilter('brandname', ['Wärme & Söhne'])];
    expect(decodeFilters(encodeFilters(filters))).toEqual(filters);
    expect(decodeFilters('%%%')).toEqual([]);
    expect(decodeFilters(null)).toEqual([]);
  });

  it('keeps pages one-based and leaves empty parts out', () => {
    expect(searchUrl()).toBe('/suche');
    expect(searchUrl({ term: 'Kugelhahn 1/2"', page: 0 })).toBe('/suche?term=Kugelhahn+1%2F2%22&page=1');
    expect(
      decodeFilters(
        new URL(searchUrl({ filters: [treeFilter('SHKMARKET_10')] }), 'http://p').searchParams.get('filters'),
      ),
    ).toEqual([treeFilter('SHKMARKET_10')]);
  });
});
