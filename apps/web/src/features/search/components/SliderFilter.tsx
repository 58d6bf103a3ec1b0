import { useEffect, useState } from 'react';
import { Button, Group, NumberInput, RangeSlider, Stack, Text } from '@mantine/core';
import { messages } from '@shk/contracts';
import type { SearchFilterOption } from '../../../api/catalogue';
import { unitPlainText } from '../../../ui/catalogue/units';
import { formatNumber } from '../../../ui/format';

interface SliderFilterProps {
  option: SearchFilterOption;
  onApply: (minValue: number | null, maxValue: number | null) => void;
  units?: Map<string, string>;
}

/** Step and display precision from the width of the range. */
function stepOf(min: number, max: number): { step: number; decimals: number } {
  const width = max - min;
  if (width <= 1) return { step: 0.01, decimals: 2 };
  if (width <= 20) return { step: 0.1, decimals: 1 };
  return { step: 1, decimals: 0 };
}

const toNumber = (value: string | number): number | null => {
  if (value === '' || value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/\./g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : null;
};

/**
 * A slider filter ('Regler'): range slider over the values of the result set, plus min/max inputs with
 * the spec's errors ('Eingabe außerhalb des gültigen Bereichs', 'Min-Wert darf nicht größer als Max-Wert sein').
 */
export function SliderFilter({ option, onApply, units }: SliderFilterProps) {
  const rangeMin = option.sliderValues?.minValue ?? null;
  const rangeMax = option.sliderValues?.maxValue ?? null;
  const selectedMin = option.selectedSliderValues?.minValue ?? null;
  const selectedMax = option.selectedSliderValues?.maxValue ?? null;
  const [minText, setMinText] = useState<string | number>(selectedMin ?? '');
  const [maxText, setMaxText] = useState<string | number>(selectedMax ?? '');
  const [error, setError] = useState<{ min?: string; max?: string } | null>(null);

  useEffect(() => {
    setMinText(selectedMin ?? '');
    setMaxText(selectedMax ?? '');
    setError(null);
  }, [selectedMin, selectedMax]);

  if (rangeMin === null || rangeMax === null) {
    return (
      <Text size="sm" c="dimmed">
        {messages.noFilters}
      </Text>
    );
  }
  const low = Math.floor(rangeMin);
  const high = Math.max(Math.ceil(rangeMax), low);
  const { step, decimals } = stepOf(low, high);
  const unit = option.unit ? unitPlainText(option.unit, units) : '';
  const min = toNumber(minText);
  const max = toNumber(maxText);
  const sliderValue: [number, number] = [
    Math.min(Math.max(min ?? low, low), high),
    Math.max(Math.min(max ?? high, high), low),
  ];

  const validate = (nextMin: number | null, nextMax: number | null) => {
    const outside = (v: number | null) => v !== null && (v < low || v > high);
    if (outside(nextMin) || outside(nextMax)) {
      return {
        min: outside(nextMin) ? messages.sliderOutOfRange : undefined,
        max: outside(nextMax) ? messages.sliderOutOfRange : undefined,
      };
    }
    if (nextMin !== null && nextMax !== null && nextMin > nextMax) return { min: messages.sliderMinAboveMax };
    return null;
  };

  const apply = (nextMin: number | null, nextMax: number | null) => {
    const problem = validate(nextMin, nextMax);
    setError(problem);
    if (problem) return;
    // The full range is no restriction.
    onApply(nextMin !== null && nextMin <= low ? null : nextMin, nextMax !== null && nextMax >= high ? null : nextMax);
  };

  const format = (v: number) => `${formatNumber(v, decimals)}${unit ? ` ${unit}` : ''}`;

  return (
    <Stack gap="sm" data-testid={`slider-${option.columnName}`}>
      <RangeSlider
        min={low}
        max={high}
        step={step}
        minRange={0}
        value={sliderValue}
        label={format}
        thumbFromLabel={`${option.columnDescr} von`}
        thumbToLabel={`${option.columnDescr} bis`}
        onChange={([from, to]) => {
          setMinText(from);
          setMaxText(to);
          setError(null);
        }}
        onChangeEnd={([from, to]) => apply(from, to)}
        mx={8}
        mb={4}
      />
      <Text size="xs" c="dimmed">
        Bereich: {format(low)} – {format(high)}
      </Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          apply(min, max);
        }}
      >
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <NumberInput
            label="Min"
            size="xs"
            value={minText}
            onChange={(value) => {
              setMinText(value);
              setError(null);
            }}
            decimalSeparator=","
            thousandSeparator="."
            hideControls
            placeholder={format(low)}
            error={error?.min}
            aria-label={`${option.columnDescr} Minimum`}
            style={{ flex: 1 }}
          />
          <NumberInput
            label="Max"
            size="xs"
            value={maxText}
            onChange={(value) => {
              setMaxText(value);
              setError(null);
            }}
            decimalSeparator=","
            thousandSeparator="."
            hideControls
            placeholder={format(high)}
            error={error?.max}
            aria-label={`${option.columnDescr} Maximum`}
            style={{ flex: 1 }}
          />
        </Group>
        <Button type="submit" size="xs" variant="light" mt="xs" fullWidth>
          Übernehmen
        </Button>
      </form>
    </Stack>
  );
}
