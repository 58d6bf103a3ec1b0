import { useEffect, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Role } from '@shk/contracts';
import { useListedUserProfile } from '../../api/session';
import type { AnalyticsItem } from '../../lib/analytics';
import { CartIcon } from '../icons';
import { minQuantityError, QuantityCounter } from '../QuantityCounter';
import { useAddToCart } from '../../api/use-add-to-cart';
import { useIdsContext } from '../../api/ids';

interface AddToCartButtonProps {
  productInstanceId: string;
  /** Minimum order quantity of the offer (default 1); the counter starts there. */
  minQuantity?: number | null;
  /** From the offer's orderable status; a non-orderable offer shows the button disabled. */
  orderable: boolean;
  /** Why the offer cannot be ordered (shown below the button). */
  hint?: string | null;
  item: AnalyticsItem;
  size?: 'xs' | 'sm' | 'md';
  /** Full-width button below the counter (narrow cards). */
  stacked?: boolean;
}

const initialQuantity = (minQuantity: number | null | undefined) => Math.max(1, Math.ceil(minQuantity ?? 1));

/** Quantity counter and 'In den Warenkorb' for buyers (spec §6: only buyers see cart controls). */
export function AddToCartButton({
  productInstanceId,
  minQuantity,
  orderable,
  hint,
  item,
  size = 'sm',
  stacked = false,
}: AddToCartButtonProps) {
  const profile = useListedUserProfile().data;
  const role = profile?.role;
  const addToCart = useAddToCart(Boolean(profile?.idsContextId));
  // A punchout session that only shows the earlier cart (cXML inspect) changes nothing (the API refuses it too).
  const readOnly = Boolean(useIdsContext().cart.data?.readOnly);
  const [quantity, setQuantity] = useState(() => initialQuantity(minQuantity));
  useEffect(() => setQuantity(initialQuantity(minQuantity)), [productInstanceId, minQuantity]);

  if (role !== Role.Buyer || readOnly) return null;
  const valid = minQuantityError(quantity, minQuantity) === null;

  const button = (
    <Button
      size={size}
      leftSection={<CartIcon size={16} />}
      disabled={!orderable || !valid}
      loading={addToCart.isPending}
      fullWidth={stacked}
      data-testid="add-to-cart"
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        addToCart.mutate({ productInstanceId, quantity, item });
      }}
    >
      In den Warenkorb
    </Button>
  );

  return (
    <Stack gap={6} onClick={(event) => event.stopPropagation()}>
      {stacked ? (
        <Stack gap={6}>
          <QuantityCounter
            value={quantity}
            onChange={setQuantity}
            minQuantity={minQuantity}
            disabled={!orderable}
            size={size}
          />
          {button}
        </Stack>
      ) : (
        <Group gap="xs" align="flex-start" wrap="wrap">
          <QuantityCounter
            value={quantity}
            onChange={setQuantity}
            minQuantity={minQuantity}
            disabled={!orderable}
            size={size}
          />
          {button}
        </Group>
      )}
      {!orderable && hint && (
        <Text size="xs" c="var(--mantine-color-orange-light-color)" data-testid="orderability-hint">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
