import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, round2, timings } from '@shk/contracts';
import { cartMemory } from './cart-memory';
import { cartsApi, invalidateCarts } from './carts';
import { ApiError } from './problem';
import { trackEcommerce, type AnalyticsItem } from '../lib/analytics';
import { toast } from '../lib/toast';

export interface AddToCartInput {
  productInstanceId: string;
  quantity: number;
  /** For the add_to_cart event (price = net price, if known). */
  item: AnalyticsItem;
}

/** The remembered current cart (spec §4), or undefined for the default cart; in IDS context always the default. */
function rememberedCartId(inIdsContext: boolean): number | undefined {
  if (inIdsContext) return undefined;
  const remembered = cartMemory.get();
  return remembered && /^\d+$/.test(remembered) ? Number(remembered) : undefined;
}

/**
 * Puts an offer into the current cart (remembered cart, else the default cart): POST /v1/CartItems.
 * 201 → success toast (8000 ms), cart reads refreshed (header badge), add_to_cart pushed; anything else →
 * the spec's warning toast. A remembered cart that no longer exists is forgotten and the default cart used.
 * `inIdsContext` comes from the caller's profile read (one profile observer per button instead of two).
 */
export function useAddToCart(inIdsContext: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ productInstanceId, quantity }: AddToCartInput) => {
      const cartId = rememberedCartId(inIdsContext);
      try {
        return await cartsApi.addItem({ productInstanceId, quantity, ...(cartId !== undefined ? { cartId } : {}) });
      } catch (error) {
        if (cartId !== undefined && error instanceof ApiError && error.status === 404) {
          cartMemory.clear();
          return cartsApi.addItem({ productInstanceId, quantity });
        }
        throw error;
      }
    },
    onSuccess: (_, { quantity, item }) => {
      toast.success(messages.cartItemAdded, { durationMs: timings.toastCartAddedMs });
      void invalidateCarts(queryClient);
      trackEcommerce('add_to_cart', {
        value: item.price !== undefined ? round2(item.price * quantity) : undefined,
        items: [{ ...item, quantity }],
      });
    },
    onError: () => {
      toast.warning(messages.cartItemAddFailed, { durationMs: timings.toastCartAddedMs });
    },
  });
}
