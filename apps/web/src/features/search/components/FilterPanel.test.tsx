import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { filterValuesOf, messages, type SearchFilter } from '@shk/contracts';
import type { SearchFilterOption } from '../../../api/catalogue';
import { fakeApi } from '../../../test/fake-api';
import { renderWithApp, testProfile } from '../../../test/render';
import { FilterPanel } from './FilterPanel';

const value = (name: string, count: number) => ({ value: name, displayName: name, count, selected: false });

const brands = ['Aqua', 'Bädermarkt', 'Calor', 'Duschwelt', 'Eckhaus', 'Fliesenkönig'];

const brand: SearchFilterOption = {
  columnName: 'Brand',
  columnDescr: 'Marke',
  filterType: 'Auswahl',
  filterValue: brands.slice(0, 5).map((b, i) => value(b, 10 - i)),
  valueCount: 6,
  sliderValues: null,
  selectedSliderValues: null,
  unit: null,
};

const length: SearchFilterOption = {
  columnName: 'EF000008',
  columnDescr: 'Länge',
  filterType: 'Regler',
  filterValue: [],
  valueCount: 0,
  sliderValues: { minValue: 10, maxValue: 500 },
  selectedSliderValues: null,
  unit: 'MMT',
};

/** The panel on a search page: the filters it sets are the search's next filters. */
function Host({ changes }: { changes: SearchFilter[][] }) {
  const [filters, setFilters] = useState<SearchFilter[]>([]);
  return (
    <FilterPanel
      options={[brand, length]}
      filters={filters}
      term="ventil"
      units={new Map([['MMT', 'mm']])}
      onChange={(next) => {
        changes.push(next);
        setFilters(next);
      }}
    />
  );
}

/** Rendered inside an awaited act: the panel's first render waits for the range filters' code, and React retries it
 * once that has loaded. */
async function renderPanel() {
  const changes: SearchFilter[][] = [];
  let view!: ReturnType<typeof renderWithApp>;
  await act(async () => {
    view = renderWithApp(<Host changes={changes} />, { profile: testProfile() });
    await import('./SliderFilter');
  });
  const last = () => changes.at(-1) ?? [];
  const of = (column: string) => last().find((f) => f.columnName === column);
  return { ...view, changes, of };
}

describe('FilterPanel (the search filters)', () => {
  it('selects and unselects brands with their checkboxes and counts the selection', async () => {
    fakeApi(() => ({ status: 500 }));
    const { user, of } = await renderPanel();
    await user.click(await screen.findByRole('checkbox', { name: /Aqua/ }));
    await user.click(screen.getByRole('checkbox', { name: /Calor/ }));
    expect(filterValuesOf(of('Brand')!)).toEqual(['Aqua', 'Calor']);
    expect(within(screen.getByRole('button', { name: /Marke/ })).getByText('2')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /Aqua/ }));
    expect(filterValuesOf(of('Brand')!)).toEqual(['Calor']);
  });

  it('loads every value with "Mehr anzeigen" (POST /v1/Product/FilterOptions with the term and the filters)', async () => {
    const sent = fakeApi(() => ({ body: { ...brand, filterValue: brands.map((b) => value(b, 3)) } }));
    const { user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Mehr anzeigen (6)' }));
    expect(await screen.findByRole('checkbox', { name: /Fliesenkönig/ })).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/Product/FilterOptions',
        body: { filterName: 'Brand', searchTerm: 'ventil', filters: [] },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Weniger anzeigen' })).toBeTruthy();
  });

  it('refuses a range outside the result’s values and a minimum above the maximum, in German', async () => {
    fakeApi(() => ({ status: 500 }));
    const { user, changes } = await renderPanel();
    const min = await screen.findByRole('textbox', { name: 'Länge Minimum' });
    const max = screen.getByRole('textbox', { name: 'Länge Maximum' });
    await user.type(min, '5');
    await user.click(screen.getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText(messages.sliderOutOfRange)).toBeTruthy();
    await user.clear(min);
    await user.type(min, '300');
    await user.type(max, '200');
    await user.click(screen.getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText(messages.sliderMinAboveMax)).toBeTruthy();
    expect(changes).toEqual([]);
  });

  it('applies a typed range; the full range is no restriction', async () => {
    fakeApi(() => ({ status: 500 }));
    const { user, of } = await renderPanel();
    const min = await screen.findByRole('textbox', { name: 'Länge Minimum' });
    const max = screen.getByRole('textbox', { name: 'Länge Maximum' });
    await user.type(min, '20');
    await user.type(max, '250');
    await user.click(screen.getByRole('button', { name: 'Übernehmen' }));
    await waitFor(() => expect(of('EF000008')?.sliderValues).toEqual({ minValue: 20, maxValue: 250 }));
    await user.clear(min);
    await user.type(min, '10');
    await user.clear(max);
    await user.type(max, '500');
    await user.click(screen.getByRole('button', { name: 'Übernehmen' }));
    await waitFor(() => expect(of('EF000008')).toBeUndefined());
  });
});
