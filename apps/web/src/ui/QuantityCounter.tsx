import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { DeferredTooltip } from './DeferredTooltip';
import { messages } from '@shk/contracts';
import { CheckIcon } from './icons';
import { minQuantityError, parseQuantity, QUANTITY_INPUT_FROM } from './quantity';

export { minQuantityError } from './quantity';

const MORE = '10+';
const selectOptions = [...Array.from({ length: QUANTITY_INPUT_FROM - 1 }, (_, i) => String(i + 1)), MORE];

interface QuantityCounterProps {
  value: number;
  /** Called with confirmed whole numbers > 0 only. */
  onChange: (quantity: number) => void;
  /** Minimum order quantity of the offer (default 1); a smaller quantity shows the spec's hint. */
  minQuantity?: number | null;
  disabled?: boolean;
  /** Accessible label, e.g. 'Menge'. */
  label?: string;
  size?: 'xs' | 'sm' | 'md';
}

/**
 * Quantity counter (spec §4): below 10 a dropdown 1–9 and '10+'; '10+' and quantities of 10 or more show a
 * numeric input whose value counts only after confirming (button or Enter; Escape returns to the dropdown). Invalid input keeps the previous quantity and
 * shows 'Bitte ganze Zahlen größer 0 angeben.'.
 */
export function QuantityCounter({
  value,
  onChange,
  minQuantity,
  disabled = false,
  label = 'Menge',
  size = 'sm',
}: QuantityCounterProps) {
  const [inputMode, setInputMode] = useState(value >= QUANTITY_INPUT_FROM);
  const [draft, setDraft] = useState(String(value));
  const [draftError, setDraftError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  // Follow a value set from outside (another offer selected, cart item refreshed).
  useEffect(() => {
    setDraft(String(value));
    setDraftError(null);
    setInputMode(value >= QUANTITY_INPUT_FROM);
  }, [value]);

  const confirm = () => {
    const quantity = parseQuantity(draft);
    if (quantity === null) {
      setDraftError(messages.wholeNumbers);
      return;
    }
    setDraftError(null);
    if (quantity < QUANTITY_INPUT_FROM) setInputMode(false);
    onChange(quantity);
  };

  const minError = minQuantityError(value, minQuantity);
  const error = draftError ?? minError;
  const pending = inputMode && parseQuantity(draft) !== value;

  return (
    <Stack gap={4} data-testid="quantity-counter">
      {inputMode ? (
        <Group gap={4} wrap="nowrap">
          <TextInput
            ref={inputRef}
            aria-label={label}
            inputMode="numeric"
            value={draft}
            size={size}
            w={96}
            disabled={disabled}
            error={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setDraft(event.currentTarget.value);
              setDraftError(null);
            }}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                confirm();
              } else if (event.key === 'Escape' && value < QUANTITY_INPUT_FROM) {
                // Back to the dropdown without changing the quantity.
                event.preventDefault();
                setInputMode(false);
                setDraft(String(value));
                setDraftError(null);
              }
            }}
          />
          <DeferredTooltip label="Menge übernehmen" withArrow>
            <ActionIcon
              variant={pending ? 'filled' : 'light'}
              size={size === 'md' ? 36 : size === 'xs' ? 30 : 36}
              aria-label="Menge übernehmen"
              disabled={disabled}
              onClick={confirm}
            >
              <CheckIcon size={16} />
            </ActionIcon>
          </DeferredTooltip>
        </Group>
      ) : (
        <NativeSelect
          aria-label={label}
          data={selectOptions}
          value={String(value)}
          size={size}
          w={96}
          disabled={disabled}
          error={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            const selected = event.currentTarget.value;
            if (selected === MORE) {
              // '10+' only opens the input; the quantity counts once it is confirmed (button or Enter).
              setInputMode(true);
              setDraft(String(QUANTITY_INPUT_FROM));
              requestAnimationFrame(() => inputRef.current?.select());
            } else {
              onChange(Number(selected));
            }
          }}
        />
      )}
      {error && (
        <Text id={errorId} size="xs" c="red" role="alert" maw={260}>
          {error}
        </Text>
      )}
    </Stack>
  );
}
