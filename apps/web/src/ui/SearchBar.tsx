import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { limits } from '@shk/contracts';
import { productUrl } from './catalogue/product-url';
import { SearchIcon } from './icons';
import type { SuggestionsStore } from './SearchSuggestions';
import { BarcodeScanButton } from './barcode/BarcodeScanButton';

type SuggestionsModule = typeof import('./SearchSuggestions');
let suggestionsModule: SuggestionsModule | null = null;
/**
 * The suggestions' code (Mantine's Combobox with Popover and floating-ui, the debounce, the suggestions read) is
 * loaded when the field is first hovered or focused, not with the page; once loaded, every search field uses it
 * at once.
 */
export function loadSuggestions(): Promise<SuggestionsModule> {
  return import('./SearchSuggestions').then((m) => (suggestionsModule = m));
}
export const suggestionsLoaded = () => suggestionsModule !== null;

interface SearchBarProps {
  initialTerm?: string;
  /** Called with the trimmed term; only terms longer than one character are submitted (spec). */
  onSearch: (term: string) => void;
  size?: 'md' | 'lg';
  /** Offer search suggestions (terms, brands, categories, products) while typing, debounced 1000 ms. */
  withSuggestions?: boolean;
}

/** Placeholders from the longest to the shortest; the field shows the longest that fits its width. */
const placeholders = [
  'Produkt, Marke, Artikelnummer oder GTIN suchen',
  'Produkt, Marke, Art.-Nr. oder GTIN',
  'Produkt oder Art.-Nr.',
  'Suchbegriff',
];

/** The longest placeholder that fits into the input (measured with its font; follows size changes). */
function useFittingPlaceholder(ref: RefObject<HTMLInputElement | null>, remounted: unknown): string {
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
    // `remounted`: the field is a new element once the suggestions' Combobox wraps it.
  }, [ref, remounted]);
  return placeholder;
}

/** The portal's search field with its 'Suchen' button. */
export function SearchBar({ initialTerm = '', onSearch, size = 'md', withSuggestions = false }: SearchBarProps) {
  const [term, setTerm] = useState(initialTerm);
  const inputRef = useRef<HTMLInputElement>(null);
  const trimmed = term.trim();
  const navigate = useNavigate();
  const [suggestions, setSuggestions] = useState<SuggestionsModule | null>(() =>
    withSuggestions ? suggestionsModule : null,
  );
  const placeholder = useFittingPlaceholder(inputRef, suggestions);
  // On a narrow phone the field holds the barcode button; the magnifier (the 'Suchen' button says it) gives way.
  const narrow = useMediaQuery('(max-width: 30em)', false, { getInitialValueInEffect: false });
  const store = useRef<SuggestionsStore | null>(null);
  // The field's focus and selection when the suggestions' code arrived: the field is mounted again inside the
  // Combobox then, and gets both back in the same commit (typing goes on where it was).
  const handOver = useRef<{ start: number | null; end: number | null } | null>(null);

  const wantSuggestions = () => {
    if (!withSuggestions || suggestions) return;
    void loadSuggestions().then((m) => {
      const field = inputRef.current;
      handOver.current =
        field && document.activeElement === field ? { start: field.selectionStart, end: field.selectionEnd } : null;
      setSuggestions(() => m);
    });
  };

  useLayoutEffect(() => {
    const field = inputRef.current;
    const focus = handOver.current;
    if (!suggestions || !field || !focus) return;
    handOver.current = null;
    field.focus({ preventScroll: true });
    field.setSelectionRange(focus.start, focus.end);
    store.current?.openDropdown();
  }, [suggestions]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    store.current?.closeDropdown();
    if (trimmed.length > 1) onSearch(trimmed);
  };

  const choose = (value: string) => {
    store.current?.closeDropdown();
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
        if (withSuggestions) store.current?.openDropdown();
        wantSuggestions();
      }}
      onFocus={() => {
        if (withSuggestions) store.current?.openDropdown();
        wantSuggestions();
      }}
      onPointerEnter={wantSuggestions}
      onBlur={() => store.current?.closeDropdown()}
      maxLength={limits.searchTermMaxLength}
      leftSection={narrow ? undefined : <SearchIcon size={18} />}
      // A GTIN scanned with the phone's camera is searched at once; in the field, so the field keeps its width.
      rightSection={
        <BarcodeScanButton
          inField
          onScan={(code) => {
            setTerm(code);
            onSearch(code);
          }}
        />
      }
      rightSectionPointerEvents="all"
      size={size}
      style={{ flex: 1 }}
      // What the Combobox's target sets, already before its code is there (no change when it arrives).
      {...(withSuggestions && !suggestions ? { 'aria-haspopup': 'listbox' as const, autoComplete: 'off' } : {})}
    />
  );

  return (
    <form role="search" onSubmit={submit}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {suggestions ? (
          <suggestions.SearchSuggestions term={trimmed} storeRef={store} onChoose={choose}>
            {input}
          </suggestions.SearchSuggestions>
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
