import { useEffect, useRef, useState } from 'react';
import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SearchIcon } from './icons';

interface ListSearchInputProps {
  label: string;
  placeholder?: string;
  /** The committed term (e.g. from the URL). */
  value: string;
  /** Called with the term after a short typing pause (and at once when cleared). */
  onCommit: (value: string) => void;
  delayMs?: number;
  maxLength?: number;
  w?: TextInputProps['w'];
}

/** Search field of a list page: filters while typing, debounced, with a clear button. */
export function ListSearchInput({
  label,
  placeholder,
  value,
  onCommit,
  delayMs = 300,
  maxLength = 200,
  w,
}: ListSearchInputProps) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, delayMs);
  const committed = useRef(value);

  // Follow outside changes (back button, links) without fighting the user's typing.
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (debounced !== committed.current) {
      committed.current = debounced;
      onCommit(debounced);
    }
  }, [debounced, onCommit]);

  const clear = () => {
    setText('');
    committed.current = '';
    onCommit('');
  };

  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      maxLength={maxLength}
      leftSection={<SearchIcon size={16} />}
      rightSection={text ? <CloseButton size="sm" aria-label="Suche leeren" onClick={clear} /> : null}
      w={w ?? { base: '100%', sm: 320 }}
    />
  );
}
