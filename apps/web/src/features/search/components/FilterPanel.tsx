import { Suspense, use, useState } from 'react';
import { Accordion, Badge, Group, Text } from '@mantine/core';
import { breakpoints, messages, SearchColumn, timings } from '@shk/contracts';
import type { SearchFilterOption } from '../../../api/catalogue';
import { filterValuesOf, type SearchFilter } from '@shk/contracts';
import { selectedValues, setSlider, toggleValue } from '../search-state';
import { SelectionFilter } from './SelectionFilter';

type SliderFilterModule = typeof import('./SliderFilter');
let sliderFilter: Promise<SliderFilterModule> | null = null;
/**
 * The range filters' code (RangeSlider, NumberInput with react-number-format) is loaded when a panel with a range
 * filter is shown: on small screens the panel is in the filter drawer, so the page loads it only when that opens.
 */
const loadSliderFilter = () => (sliderFilter ??= import('./SliderFilter'));
// On large screens the panel shows with the first result: loading starts with the page's code, so that it is there
// before the search's answer (the panel then appears at once, as before).
if (typeof window !== 'undefined' && window.matchMedia?.(`(min-width: ${breakpoints.mobilePx}px)`).matches) {
  void loadSliderFilter();
}

/** Spec: sections are open by default if among tree, brand, supplier, ETIM class, wholesalers or the first 5. */
const OPEN_COLUMNS: string[] = [
  SearchColumn.tree,
  SearchColumn.brand,
  SearchColumn.supplierId,
  SearchColumn.etimClass,
  SearchColumn.wholesalers,
];
const OPEN_FIRST = 5;

interface FilterPanelProps {
  options: SearchFilterOption[];
  filters: SearchFilter[];
  term: string;
  onChange: (filters: SearchFilter[]) => void;
  units?: Map<string, string>;
}

const activeCount = (option: SearchFilterOption, filters: SearchFilter[]) => {
  const filter = filters.find((f) => f.columnName === option.columnName);
  if (!filter) return 0;
  return filter.filterType === 'Regler' ? 1 : filterValuesOf(filter).length;
};

/** The filter panel: one collapsible section per filter of the result (the tree has its own panel). */
export function FilterPanel(props: FilterPanelProps) {
  // The whole panel waits for the range filters' code (never a section that grows afterwards).
  return (
    <Suspense fallback={null}>
      <FilterSections {...props} />
    </Suspense>
  );
}

function FilterSections({ options, filters, term, onChange, units }: FilterPanelProps) {
  const visible = options.filter(
    (o) =>
      o.filterType !== 'Baum' &&
      (o.filterType === 'Regler'
        ? o.sliderValues?.minValue !== null && o.sliderValues?.minValue !== undefined
        : o.filterValue.length > 0 || activeCount(o, filters) > 0),
  );
  const SliderFilter = visible.some((o) => o.filterType === 'Regler') ? use(loadSliderFilter()).SliderFilter : null;
  const defaultOpen = visible
    .filter((o, index) => index < OPEN_FIRST || OPEN_COLUMNS.includes(o.columnName))
    .map((o) => o.columnName);
  const [open, setOpen] = useState<string[]>(defaultOpen);
  // Sections of filters that appear later (another result) follow the default rule once.
  const [known, setKnown] = useState<string[]>(visible.map((o) => o.columnName));
  const unknown = visible.filter((o) => !known.includes(o.columnName));
  if (unknown.length) {
    setKnown([...known, ...unknown.map((o) => o.columnName)]);
    setOpen([...open, ...unknown.filter((o) => defaultOpen.includes(o.columnName)).map((o) => o.columnName)]);
  }

  if (visible.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="no-filters">
        {messages.noFilters}
      </Text>
    );
  }

  return (
    <Accordion
      multiple
      value={open}
      onChange={setOpen}
      transitionDuration={timings.collapseMs}
      variant="default"
      data-testid="filter-panel"
    >
      {visible.map((option) => {
        const count = activeCount(option, filters);
        return (
          <Accordion.Item key={option.columnName} value={option.columnName} data-column={option.columnName}>
            <Accordion.Control>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {option.columnDescr}
                </Text>
                {count > 0 && (
                  <Badge size="xs" variant="filled" circle>
                    {count}
                  </Badge>
                )}
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              {option.filterType === 'Regler' && SliderFilter ? (
                <SliderFilter
                  option={option}
                  units={units}
                  onApply={(min, max) => onChange(setSlider(filters, option.columnName, min, max))}
                />
              ) : (
                <SelectionFilter
                  option={option}
                  selected={selectedValues(filters, option.columnName)}
                  term={term}
                  filters={filters}
                  onToggle={(value, on) => onChange(toggleValue(filters, option.columnName, value, on))}
                />
              )}
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
