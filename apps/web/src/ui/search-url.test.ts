import { beforeAll, describe, expect, it } from 'vitest';
import { selectionFilter, treeFilter } from '@shk/contracts';
import {
  decodeFilters,
  encodeFilters,
  filterParserLoaded,
  loadFilterParser,
  searchUrl,
  sellerCatalogueUrl,
} from './search-url';
import source from './search-url.ts?raw';

describe('the filters parser (zod), loaded only for addresses with filters', () => {
  it('is not part of the module: a filters value before loadFilterParser() fails loudly, no value needs nothing', () => {
    expect(filterParserLoaded()).toBe(false);
    expect(decodeFilters(null)).toEqual([]);
    expect(decodeFilters('')).toEqual([]);
    expect(() => decodeFilters(encodeFilters([treeFilter('SHKMARKET_10')]))).toThrow(/loadFilterParser/);
  });

  it('is imported only dynamically (no static import of the contracts’ schemas)', () => {
    expect(source).not.toMatch(/^import\s+\{[^}]*\}\s+from\s+'@shk\/contracts'/m);
    expect(source).toMatch(/import\('\.\/search-filter-parser'\)/);
  });

  it('reads filters once loaded', async () => {
    await loadFilterParser();
    expect(filterParserLoaded()).toBe(true);
    expect(decodeFilters(encodeFilters([treeFilter('SHKMARKET_10')]))).toEqual([treeFilter('SHKMARKET_10')]);
  });
});

describe('search URL state', () => {
  beforeAll(() => loadFilterParser());

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
