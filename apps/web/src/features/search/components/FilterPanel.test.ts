import { createElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchFilterOption } from '../../../api/catalogue';
import source from './FilterPanel.tsx?raw';

const loaded = vi.hoisted(() => ({ modules: 0 }));
vi.mock('./SliderFilter', async (original) => {
  loaded.modules++;
  return original();
});

// The selection filters read their values from the API (not part of this test).
vi.mock('./SelectionFilter', () => ({ SelectionFilter: () => null }));

let FilterPanel: typeof import('./FilterPanel').FilterPanel;
let renderToHtml: typeof import('../../../ui/render-for-test').renderToHtml;
beforeAll(async () => {
  // The API client reads the page's origin when its module loads (no matchMedia: no large screen).
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  ({ FilterPanel } = await import('./FilterPanel'));
  ({ renderToHtml } = await import('../../../ui/render-for-test'));
});

const price = {
  columnName: 'mhk_handelsdaten_preis',
  columnDescr: 'Preis (netto)',
  filterType: 'Regler',
  filterValue: [],
  sliderValues: { minValue: 3, maxValue: 250 },
  selectedSliderValues: null,
  unit: null,
} as unknown as SearchFilterOption;

const panel = (options: SearchFilterOption[]) =>
  createElement(FilterPanel, { options, filters: [], term: 'Thermostat', onChange: () => undefined });

describe('the filter panel’s range filters, loaded with the first range shown', () => {
  it('has no static import of SliderFilter (RangeSlider, NumberInput, react-number-format)', () => {
    expect(source).not.toMatch(/^import \{[^}]*\} from '\.\/SliderFilter'/m);
    expect(source).toMatch(/import\('\.\/SliderFilter'\)/);
  });

  it('does not load them for a result without range filters (and not in node, where no screen is large)', async () => {
    expect(await renderToHtml(panel([]))).toContain('no-filters');
    expect(loaded.modules).toBe(0);
  });

  it('shows a range filter complete in the first picture of the panel once loaded', async () => {
    const html = await renderToHtml(panel([price]));
    expect(loaded.modules).toBe(1);
    expect(html).toContain('data-testid="slider-mhk_handelsdaten_preis"');
    expect(html).toContain('aria-label="Preis (netto) Maximum"');
  });
});
