import { createElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import source from './SearchBar.tsx?raw';

const loaded = vi.hoisted(() => ({ modules: 0 }));
vi.mock('./SearchSuggestions', async (original) => {
  loaded.modules++;
  return original();
});

// The suggestions' read itself is not part of this test (it needs the signed-in session).
vi.mock('../api/catalogue-queries', () => ({ useSuggestions: () => ({ data: undefined }) }));

let SearchBar: typeof import('./SearchBar').SearchBar;
let loadSuggestions: typeof import('./SearchBar').loadSuggestions;
let suggestionsLoaded: typeof import('./SearchBar').suggestionsLoaded;
let renderToHtml: typeof import('./render-for-test').renderToHtml;

beforeAll(async () => {
  ({ SearchBar, loadSuggestions, suggestionsLoaded } = await import('./SearchBar'));
  ({ renderToHtml } = await import('./render-for-test'));
});

/** The field's element (without React's generated id). */
const field = (html: string) => (html.match(/<input[^>]*>/)?.[0] ?? '').replace(/ id="[^"]*"/, '');
const render = () =>
  renderToHtml(createElement(SearchBar, { withSuggestions: true, initialTerm: 'Therm', onSearch: () => undefined }));

describe('the search field’s suggestions, loaded when the field is first hovered or focused', () => {
  it('has no static import of the Combobox or the suggestions module', () => {
    expect(source).not.toMatch(/import \{[^}]*\b(Combobox|useCombobox)\b[^}]*\} from '@mantine\/core'/);
    expect(source).not.toMatch(/^import \{[^}]*\} from '\.\/SearchSuggestions'/m);
    expect(source).toMatch(/import\('\.\/SearchSuggestions'\)/);
  });

  it('renders the field without loading them, with the attributes the Combobox gives it later', async () => {
    const before = field(await render());
    expect(loaded.modules).toBe(0);
    expect(suggestionsLoaded()).toBe(false);
    expect(before).toContain('aria-label="Suchbegriff"');
    expect(before).toContain('aria-haspopup="listbox"');
    expect(before).toContain('autoComplete="off"');
    expect(before).toContain('value="Therm"');

    await loadSuggestions();
    expect(loaded.modules).toBe(1);
    expect(suggestionsLoaded()).toBe(true);
    // A field mounted once the code is there is the Combobox's target at once; the field itself is the same.
    const after = field(await render());
    expect(after).toBe(before);
  });
});
