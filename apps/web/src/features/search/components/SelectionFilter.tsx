import { useState } from 'react';
import { Checkbox, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SearchFilterOption } from '../../../api/catalogue';
import type { SearchFilter } from '@shk/contracts';
import { useAllFilterValues } from '../use-search';
import { formatCount } from '../../../ui/format';

/** Spec: filter lists show the first 5 values with a show-more toggle. */
const SHOWN = 5;

interface SelectionFilterProps {
  option: SearchFilterOption;
  selected: string[];
  onToggle: (value: string, on: boolean) => void;
  term: string;
  filters: SearchFilter[];
}

/** A selection filter ('Auswahl'): checkboxes with counts; 'Mehr anzeigen' loads all values of the filter. */
export function SelectionFilter({ option, selected, onToggle, term, filters }: SelectionFilterProps) {
  const [expanded, setExpanded] = useState(false);
  const needsAll = expanded && option.valueCount > option.filterValue.length;
  const all = useAllFilterValues(option.columnName, term, filters, needsAll);
  const values = needsAll && all.data ? all.data.filterValue : option.filterValue;
  // Selected values stay visible even when they are not among the first five.
  const ordered = [
    ...values.filter((v) => selected.includes(v.value)),
    ...values.filter((v) => !selected.includes(v.value)),
  ];
  const shown = expanded
    ? ordered
    : ordered.slice(0, Math.max(SHOWN, values.filter((v) => selected.includes(v.value)).length));
  const more = Math.max(option.valueCount, values.length) > SHOWN;

  return (
    <Stack gap={6}>
      {shown.map((value) => (
        <Checkbox
          key={value.value}
          size="sm"
          checked={selected.includes(value.value)}
          onChange={(event) => onToggle(value.value, event.currentTarget.checked)}
          label={
            <Group gap={6} wrap="nowrap" justify="space-between">
              <span>{value.displayName || value.value}</span>
              <Text span size="xs" c="dimmed">
                ({formatCount(value.count)})
              </Text>
            </Group>
          }
          styles={{ body: { alignItems: 'flex-start' }, labelWrapper: { flex: 1 } }}
        />
      ))}
      {more && (
        <Group gap="xs">
          <UnstyledButton onClick={() => setExpanded(!expanded)} c="brand" fz="sm" fw={500} aria-expanded={expanded}>
            {expanded
              ? 'Weniger anzeigen'
              : `Mehr anzeigen (${formatCount(Math.max(option.valueCount, values.length))})`}
          </UnstyledButton>
          {needsAll && all.isFetching && <Loader size="xs" />}
        </Group>
      )}
    </Stack>
  );
}
