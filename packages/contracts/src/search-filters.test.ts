import { describe, expect, it } from 'vitest';
import {
  filterValuesOf,
  normaliseFilterList,
  selectionFilter,
  sliderFilter,
  treeElementIdPattern,
  treeFilter,
} from './search-filters.ts';
import { parseFilterList } from './search-filter-parse.ts';
import { SearchRequest } from './schemas/catalogue.ts';

describe('search filter list (one shape for URL, SPA and API)', () => {
  it('builds filters in the shape the API schema accepts', () => {
    const filters = [selectionFilter('brandname', ['Calora']), treeFilter('SHKMARKET_2'), sliderFilter('EF1', 1, null)];
    expect(SearchRequest.parse({ filter: filters }).filter).toEqual(filters);
    expect(filterValuesOf(filters[0])).toEqual(['Calora']);
  });

  it('spec §5: drops empty selections and sliders without bounds; the root id removes the tree restriction', () => {
    expect(
      normaliseFilterList([
        selectionFilter('brandname', ['', ' ']),
        sliderFilter('mhk_handelsdaten_preis', null, null),
        selectionFilter('supplierID', [' 200001', '200001']),
        treeFilter('SHKMARKET'),
      ]),
    ).toEqual([selectionFilter('supplierID', ['200001'])]);
  });

  it('keeps display fields out of the state', () => {
    expect(
      normaliseFilterList([
        {
          columnName: 'brandname',
          columnDescr: 'Marke',
          filterType: 'Auswahl',
          filterValue: [{ value: 'Calora', displayName: 'Calora', count: 3 }],
        },
      ]),
    ).toEqual([selectionFilter('brandname', ['Calora'])]);
  });

  it('parses untrusted JSON entry by entry with the API schema', () => {
    expect(parseFilterList({ no: 'list' })).toEqual([]);
    expect(
      parseFilterList([{ columnName: 1 }, { columnName: 'x', filterType: 'Quatsch' }, selectionFilter('serie', ['A'])]),
    ).toEqual([selectionFilter('serie', ['A'])]);
  });

  it('tree element ids: root and up to six levels', () => {
    for (const id of ['SHKMARKET', 'SHKMARKET_11', 'SHKMARKET_2_1_3']) expect(treeElementIdPattern.test(id)).toBe(true);
    for (const id of ['shkmarket', 'SHKMARKET_', 'SHKMARKET_1_2_3_4_5_6_7', "SHKMARKET_1'--"])
      expect(treeElementIdPattern.test(id)).toBe(false);
  });
});
