import { Button, CloseButton, Group, Pill, Text } from '@mantine/core';
import type { SearchFilterOption, SearchResponse } from '../../../api/catalogue';
import { unitPlainText } from '../../../ui/catalogue/units';
import { filterValuesOf, type SearchFilter } from '@shk/contracts';
import { removeColumn, setSlider, toggleValue } from '../search-state';
import { formatNumber } from '../../../ui/format';

interface ActiveFiltersProps {
  filters: SearchFilter[];
  response: SearchResponse | undefined;
  onChange: (filters: SearchFilter[]) => void;
  units?: Map<string, string>;
}

const numberText = (v: number) => formatNumber(v, 2);

/** The filters in force, each removable; 'Alle Filter zurücksetzen' clears them. */
export function ActiveFilters({ filters, response, onChange, units }: ActiveFiltersProps) {
  if (filters.length === 0) return null;
  const used = response?.filterUsed ?? [];
  const options: SearchFilterOption[] = response?.filterOption ?? [];
  const describe = (column: string) =>
    used.find((u) => u.columnName === column)?.columnDescr ??
    options.find((o) => o.columnName === column)?.columnDescr ??
    column;
  const displayName = (column: string, value: string) =>
    used.find((u) => u.columnName === column)?.filterValue?.find((v) => v.value === value)?.displayName ??
    options.find((o) => o.columnName === column)?.filterValue.find((v) => v.value === value)?.displayName ??
    value;

  const pills = filters.flatMap((filter) => {
    const label = describe(filter.columnName);
    if (filter.filterType === 'Regler') {
      const unit = options.find((o) => o.columnName === filter.columnName)?.unit;
      const u = unit ? ` ${unitPlainText(unit, units)}` : '';
      const min = filter.sliderValues?.minValue;
      const max = filter.sliderValues?.maxValue;
      const range =
        min !== null && min !== undefined && max !== null && max !== undefined
          ? `${numberText(min)} – ${numberText(max)}${u}`
          : min !== null && min !== undefined
            ? `ab ${numberText(min)}${u}`
            : `bis ${numberText(max ?? 0)}${u}`;
      return [
        {
          key: filter.columnName,
          text: `${label}: ${range}`,
          remove: () => onChange(setSlider(filters, filter.columnName, null, null)),
        },
      ];
    }
    return filterValuesOf(filter).map((value) => ({
      key: `${filter.columnName}:${value}`,
      text: `${label}: ${displayName(filter.columnName, value)}`,
      remove: () =>
        onChange(
          filter.filterType === 'Baum'
            ? removeColumn(filters, filter.columnName)
            : toggleValue(filters, filter.columnName, value, false),
        ),
    }));
  });

  return (
    <Group gap="xs" data-testid="active-filters" aria-label="Aktive Filter" role="group">
      <Text size="sm" c="dimmed">
        Aktive Filter:
      </Text>
      {pills.map((pill) => (
        <Pill key={pill.key} size="md" data-testid="active-filter">
          <Group gap={4} wrap="nowrap">
            <span>{pill.text}</span>
            <CloseButton size="xs" aria-label={`Filter entfernen: ${pill.text}`} onClick={pill.remove} />
          </Group>
        </Pill>
      ))}
      <Button variant="subtle" size="compact-sm" onClick={() => onChange([])}>
        Alle Filter zurücksetzen
      </Button>
    </Group>
  );
}
