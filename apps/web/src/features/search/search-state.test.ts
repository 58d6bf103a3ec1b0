import { beforeAll, describe, expect, it } from 'vitest';
import { encodeFilters, loadFilterParser } from '../../ui/search-url';
import { filterValuesOf, normaliseFilterList as normaliseFilters } from '@shk/contracts';
import {
  pageWindow,
  readSearchState,
  searchRequestOf,
  searchStateUrl,
  setSlider,
  setTree,
  toggleValue,
} from './search-state';

const params = (query: string) => new URLSearchParams(query);

// Reading `filters` values needs the parser the page loads on demand.
beforeAll(() => loadFilterParser());

describe('search URL state', () => {
  it('reads term, page, filters and sort and writes them back', () => {
    const filters = [{ columnName: 'brandname', filterType: 'Auswahl' as const, filterValue: [{ value: 'Calora' }] }];
    const url = searchStateUrl({ term: 'Heizkörper ventil', page: 3, filters, sort: 'nameDesc' });
    const state = readSearchState(new URL(url, 'http://x').searchParams);
    expect(state).toEqual({ term: 'Heizkörper ventil', page: 3, filters, sort: 'nameDesc' });
  });

  it('reads and writes the price sort', () => {
    for (const sort of ['priceAsc', 'priceDesc'] as const) {
      const url = searchStateUrl({ term: 'Ventil', page: 1, filters: [], sort });
      const state = readSearchState(new URL(url, 'http://x').searchParams);
      expect(state.sort).toBe(sort);
      expect(searchRequestOf(state)).toMatchObject({
        sortColumn: 'mhk_handelsdaten_preis',
        sortOrder: sort === 'priceAsc' ? 'asc' : 'desc',
      });
    }
  });

  it("shows a wholesalers filter of a link as a supplier filter (one facet: 'Lieferant')", () => {
    const filters = [
      { columnName: 'wholesalers', filterType: 'Auswahl' as const, filterValue: [{ value: '200001' }] },
      { columnName: 'supplierID', filterType: 'Auswahl' as const, filterValue: [{ value: '200004' }] },
    ];
    const state = readSearchState(params(`filters=${encodeURIComponent(encodeFilters(filters))}`));
    expect(state.filters.map((f) => [f.columnName, filterValuesOf(f)])).toEqual([['supplierID', ['200004', '200001']]]);
  });

  it('treats a page below 1 (or garbage) as 1 and caps it at 100', () => {
    expect(readSearchState(params('page=0')).page).toBe(1);
    expect(readSearchState(params('page=-4')).page).toBe(1);
    expect(readSearchState(params('page=abc')).page).toBe(1);
    expect(readSearchState(params('page=250')).page).toBe(100);
  });

  it('shows the unfiltered search for a broken filters value', () => {
    expect(readSearchState(params('term=x&filters=%%%nonsense')).filters).toEqual([]);
    expect(readSearchState(params(`filters=${encodeURIComponent(btoa('{"no":"list"}'))}`)).filters).toEqual([]);
    expect(
      readSearchState(
        params(`filters=${encodeURIComponent(btoa('[{"columnName":1},{"columnName":"x","filterType":"Quatsch"}]'))}`),
      ).filters,
    ).toEqual([]);
  });

  it('opens a category from ?id=', () => {
    expect(readSearchState(params('id=SHKMARKET_2_1')).filters).toEqual([
      { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_2_1' }] },
    ]);
  });

  it('builds the API request with filterValue objects and the sort', () => {
    const filters = encodeFilters([
      { columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: 'Calora' }] },
      { columnName: 'mhk_handelsdaten_preis', filterType: 'Regler', sliderValues: { minValue: null, maxValue: 50 } },
    ]);
    const request = searchRequestOf(
      readSearchState(
        params(
          `term=ventil&page=2&filters=${encodeURIComponent(filters)}&sortColumn=artikelbeschreibung&sortOrder=asc`,
        ),
      ),
    );
    expect(request).toEqual({
      page: 2,
      pageSize: 25,
      searchTerm: 'ventil',
      filter: [
        { columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: 'Calora' }] },
        { columnName: 'mhk_handelsdaten_preis', filterType: 'Regler', sliderValues: { minValue: null, maxValue: 50 } },
      ],
      sortColumn: 'artikelbeschreibung',
      sortOrder: 'asc',
    });
  });
});

describe('filter changes (spec §5)', () => {
  it('drops selection filters without values and sliders without min and max', () => {
    expect(
      normaliseFilters([
        { columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: '' }, { value: '  ' }] },
        {
          columnName: 'mhk_handelsdaten_preis',
          filterType: 'Regler',
          sliderValues: { minValue: null, maxValue: null },
        },
        { columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: '200001' }, { value: '200001' }] },
      ]),
    ).toEqual([{ columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: '200001' }] }]);
  });

  it('a tree filter with the root id replaces the tree restriction', () => {
    const withTree = setTree([], 'SHKMARKET_2');
    expect(withTree).toEqual([
      { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_2' }] },
    ]);
    expect(filterValuesOf(setTree(withTree, 'SHKMARKET_3')[0])).toEqual(['SHKMARKET_3']);
    expect(setTree(withTree, 'SHKMARKET')).toEqual([]);
  });

  it('adds and removes brand values and sliders', () => {
    let filters = toggleValue([], 'brandname', 'Calora', true);
    filters = toggleValue(filters, 'brandname', 'Radiatherm', true);
    expect(filterValuesOf(filters[0])).toEqual(['Calora', 'Radiatherm']);
    filters = toggleValue(filters, 'brandname', 'Calora', false);
    filters = toggleValue(filters, 'brandname', 'Radiatherm', false);
    expect(filters).toEqual([]);
    expect(setSlider([], 'EF000008', 10, null)).toEqual([
      { columnName: 'EF000008', filterType: 'Regler', sliderValues: { minValue: 10, maxValue: null } },
    ]);
    expect(setSlider(setSlider([], 'EF000008', 10, null), 'EF000008', null, null)).toEqual([]);
  });
});

describe('pagination window', () => {
  it('shows 5 pages (3 on mobile) around the current page', () => {
    expect(pageWindow(1, 100, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(7, 100, 5)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(100, 100, 5)).toEqual([96, 97, 98, 99, 100]);
    expect(pageWindow(7, 100, 3)).toEqual([6, 7, 8]);
    expect(pageWindow(2, 2, 5)).toEqual([1, 2]);
  });
});
