import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFilters, loadFilterParser } from '../../ui/search-url';
import { supplierSearchUrl } from './supplier-search-url';

const filtersOf = (url: string) => decodeFilters(new URL(url, 'http://portal').searchParams.get('filters'));

describe('search link of a supplier card', () => {
  // Reading `filters` values needs the parser the search page loads on demand.
  beforeAll(() => loadFilterParser());

  it('filters wholesalers by the wholesalers column', () => {
    const url = supplierSearchUrl({ bpNumber: '200001', name: 'Nordbad Großhandel', organisationType: 1 });
    expect(url.startsWith('/suche?')).toBe(true);
    expect(filtersOf(url)).toEqual([
      { columnName: 'wholesalers', filterType: 'Auswahl', filterValue: [{ value: '200001' }] },
    ]);
  });

  it('filters manufacturers by supplierID', () => {
    const url = supplierSearchUrl({ bpNumber: '200003', name: 'AquaTherm Armaturen', organisationType: 2 });
    expect(filtersOf(url)).toEqual([
      { columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: '200003' }] },
    ]);
  });

  it('falls back to the name as search term without a number', () => {
    expect(supplierSearchUrl({ bpNumber: '', name: 'Nordbad' })).toBe('/suche?term=Nordbad&page=1');
  });
});
