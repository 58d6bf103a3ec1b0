import { useLayoutEffect, type ReactElement, type RefObject } from 'react';
import { Combobox, Group, Text, useCombobox, type ComboboxStore } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { timings } from '@shk/contracts';
import { useSuggestions } from '../api/catalogue-queries';

export type SuggestionsStore = Pick<ComboboxStore, 'openDropdown' | 'closeDropdown'>;

const kindLabel: Record<string, string> = {
  Begriff: 'Suchbegriff',
  Marke: 'Marke',
  Kategorie: 'Kategorie',
  Serie: 'Serie',
};

/**
 * The search field's suggestions (terms, brands, categories, products) while typing, debounced 1000 ms: the field
 * (`children`) as the target of a Combobox. Loaded by SearchBar when the field is first hovered or focused.
 */
export function SearchSuggestions({
  term,
  storeRef,
  onChoose,
  children,
}: {
  /** The trimmed term. */
  term: string;
  /** Where SearchBar finds the dropdown's store (open on typing and focus, close on blur and submit). */
  storeRef: RefObject<SuggestionsStore | null>;
  onChoose: (value: string) => void;
  children: ReactElement;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // A layout effect: SearchBar opens the dropdown in its own layout effect when the field had the focus.
  useLayoutEffect(() => {
    storeRef.current = combobox;
    return () => {
      storeRef.current = null;
    };
  }, [storeRef, combobox]);
  const [debounced] = useDebouncedValue(term, timings.suggestionDebounceMs);
  const suggestionsWanted = debounced.length > 1 && combobox.dropdownOpened;
  const suggestions = useSuggestions(debounced, suggestionsWanted);
  // Suggestions of an older term are not offered for a changed one.
  const current = suggestionsWanted && suggestions.data && debounced === term ? suggestions.data : null;
  const hasOptions = Boolean(current && (current.suggestions.length || current.products.length));

  return (
    <Combobox store={combobox} onOptionSubmit={onChoose} withinPortal={false} keepMounted={false}>
      <Combobox.Target>{children}</Combobox.Target>
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
  );
}
