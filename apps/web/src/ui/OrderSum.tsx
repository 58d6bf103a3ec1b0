import { Stack, Text } from '@mantine/core';
import { formatCurrency } from './format';

/**
 * An order's net sum in a list: the value as it stands (after a supplier's confirmation the confirmed one), with
 * the ordered value beneath as 'bestellt' when the confirmation changed it.
 */
export function OrderSum({ value, ordered }: { value: number; ordered: number }) {
  return (
    <Stack gap={0} align="flex-start">
      <span data-testid="order-sum">{formatCurrency(value)}</span>
      {ordered !== value && (
        <Text size="xs" c="dimmed" data-testid="order-sum-ordered">
          bestellt {formatCurrency(ordered)}
        </Text>
      )}
    </Stack>
  );
}
