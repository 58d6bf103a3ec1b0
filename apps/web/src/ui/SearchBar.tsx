import { useState, type FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { limits } from '@shk/contracts';
import { SearchIcon } from './icons';

interface SearchBarProps {
  initialTerm?: string;
  /** Called with the trimmed term; only terms longer than one character are submitted (spec). */
  onSearch: (term: string) => void;
  size?: 'md' | 'lg';
}

/** The portal's search field with its 'Suchen' button. */
export function SearchBar({ initialTerm = '', onSearch, size = 'md' }: SearchBarProps) {
  const [term, setTerm] = useState(initialTerm);
  const trimmed = term.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed.length > 1) onSearch(trimmed);
  };
  return (
    <form role="search" onSubmit={submit}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          type="search"
          aria-label="Suchbegriff"
          placeholder="Produkt, Marke, Artikelnummer oder GTIN suchen"
          value={term}
          onChange={(event) => setTerm(event.currentTarget.value)}
          maxLength={limits.searchTermMaxLength}
          leftSection={<SearchIcon size={18} />}
          size={size}
          style={{ flex: 1 }}
        />
        <Button type="submit" size={size} disabled={trimmed.length < 2}>Suchen</Button>
      </Group>
    </form>
  );
}
