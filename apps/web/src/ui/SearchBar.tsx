import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Button, Combobox, Group, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { limits, timings } from '@shk/contracts';
import { useSuggestions } from '../api/catalogue-queries';
import { productUrl } from './catalogue/product-url';
import { SearchIcon } from './icons';

interface SearchBarProps {
  initialTerm?: string;
  /** Called with the trimmed term; only terms longer than one character are submitted (spec). */
  onSearch: (term: string) => void;
  size?: 'md' | 'lg';
  /** Offer search suggestions (terms, brands, categories, products) while typing, debounced 1000 ms. */
  withSuggestions?: boolean;
}

const kindLabel: Record<string, string> = {
  Begriff: 'Suchbegriff',
  Marke: 'Marke',
  Kategorie: 'Kategorie',
  Serie: 'Serie',
};

/** Placeholders from the longest to the shortest; the field shows the longest that fits its width. */
const placeholders = [
  'Produkt, Marke, Artikelnummer oder GTIN suchen',
  'Produkt, Marke, Art.-Nr. oder GTIN',
  'Produkt oder Art.-Nr.',
  'Suchbegriff',
];

/** The longest placeholder that fits into the input (measured with its font; follows size changes). */
function useFittingPlaceholder(ref: RefObject<HTMLInputElement | null>): string {
  const [placeholder, setPlaceholder] = useState(placeholders[0]);
  useEffect(() => {
    const input = ref.current;
    if (!input || typeof ResizeObserver === 'undefined') return;
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return;
    const choose = () => {
      const style = getComputedStyle(input);
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const fitting = placeholders.find((text) => context.measureText(text).width <= room);
      setPlaceholder(fitting ?? placeholders[placeholders.length - 1]);
    };
    // No first call here: the observer reports the input's size once after the next layout, so reading the
    // computed style then does not force a style and layout pass of the whole new page inside React's commit.
    const observer = new ResizeObserver(choose);
    observer.observe(input);
    return () => observer.disconnect();
  }, [ref]);
  return placeholder;
}

/** The portal's search field with its 'Suchen' button. */
export function SearchBar({ initialTerm = '', onSearch, size = 'md', withSuggestions = false }: SearchBarProps) {
  const [term, setTerm] = useState(initialTerm);
  const inputRef = useRef<HTMLInputElement>(null);
  const placeholder = useFittingPlaceholder(inputRef);
  const trimmed = term.trim();
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [debounced] = useDebouncedValue(trimmed, timings.suggestionDebounceMs);
  const suggestionsWanted = withSuggestions && debounced.length > 1 && combobox.dropdownOpened;
  const suggestions = useSuggestions(debounced, suggestionsWanted);
  // Suggestions of an older term are not offered for a changed one.
  const current = suggestionsWanted && suggestions.data && debounced === trimmed ? suggestions.data : null;
  const hasOptions = Boolean(current && (current.suggestions.length || current.products.length));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    combobox.closeDropdown();
    if (trimmed.length > 1) onSearch(trimmed);
  };

  const choose = (value: string) => {
    combobox.closeDropdown();
    if (value.startsWith('product:')) {
      const [productId, productInstanceId] = JSON.parse(value.slice('product:'.length)) as [string, string];
      navigate(productUrl({ productId, articleNumber: productInstanceId, searchTerm: trimmed }));
      return;
    }
    const text = value.slice('term:'.length);
    setTerm(text);
    onSearch(text);
  };

  const input = (
    <TextInput
      type="search"
      ref={inputRef}
      aria-label="Suchbegriff"
      placeholder={placeholder}
      value={term}
      onChange={(event) => {
        setTerm(event.currentTarget.value);
        if (withSuggestions) combobox.openDropdown();
      }}
      onFocus={() => withSuggestions && combobox.openDropdown()}
      onBlur={() => combobox.closeDropdown()}
      maxLength={limits.searchTermMaxLength}
      leftSection={<SearchIcon size={18} />}
      size={size}
      style={{ flex: 1 }}
    />
  );

  return (
    <form role="search" onSubmit={submit}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {withSuggestions ? (
          // keepMounted off: Combobox keeps its (hidden) dropdown mounted by default, and floating-ui then measures
          // and positions it on every page load (getComputedStyle in a layout effect: a forced style and layout of
          // the whole page inside React's commit). Mounted while open, it is positioned only when used.
          <Combobox store={combobox} onOptionSubmit={choose} withinPortal={false} keepMounted={false}>
            <Combobox.Target>{input}</Combobox.Target>
            <Combobox.Dropdown hidden={!hasOptions} data-testid="search-suggestions">
              <Combobox.Options>
                {current && current.suggestions.length > 0 && (
                  <Combobox.Group label="Vorschläge">
                    {current.suggestions.map((s) => (
                      <Combobox.Option key={`${s.kind}:${s.text}`} value={`term:${s.text}`}>
                        <Group justify="space-between" wrap="nowrap" gap="xs">
                          <Text size="sm">{s.text}</Text>
                          <Text size="xs" c="dimmed">
                            {kindLabel[s.kind] ?? s.kind}
                          </Text>
                        </Group>
                      </Combobox.Option>
                    ))}
                  </Combobox.Group>
                )}
                {current && current.products.length > 0 && (
                  <Combobox.Group label="Produkte">
                    {current.products.map((p) => (
                      <Combobox.Option
                        key={p.productInstanceId}
                        value={`product:${JSON.stringify([p.productId, p.productInstanceId])}`}
                      >
                        <Text size="sm" lineClamp={1}>
                          {p.productName}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {p.brandName}
                        </Text>
                      </Combobox.Option>
                    ))}
                  </Combobox.Group>
                )}
              </Combobox.Options>
            </Combobox.Dropdown>
          </Combobox>
        ) : (
          input
        )}
        <Button type="submit" size={size} disabled={trimmed.length < 2}>
          Suchen
        </Button>
      </Group>
    </form>
  );
}
