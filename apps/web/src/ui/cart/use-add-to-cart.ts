import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, timings } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import { api } from '../../api/client';
import { ApiError, expectStatus } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { useUserProfile } from '../../api/session';
import { trackEcommerce, type AnalyticsItem } from '../analytics';
import { toast } from '../toast';

export interface AddToCartInput {
  productInstanceId: string;
  quantity: number;
  /** For the add_to_cart event (price = net price per piece, if known). */
  item: AnalyticsItem;
}

/** The remembered current cart (spec §4), or undefined for the default cart; in IDS context always the default. */
function currentCartId(inIdsContext: boolean): number | undefined {
  if (inIdsContext) return undefined;
  const remembered = cartMemory.get();
  return remembered && /^\d+$/.test(remembered) ? Number(remembered) : undefined;
}

async function postCartItem(cartId: number | undefined, productInstanceId: string, quantity: number) {
  const result = await api.POST('/v1/CartItems', { body: { ...(cartId !== undefined ? { cartId } : {}), productInstanceId, quantity } });
  expectStatus(result, 201);
  return result.data!;
}

/**
 * Puts an offer into the current cart (remembered cart, else the default cart): POST /v1/CartItems.
 * 201 → success toast (8000 ms), cart reads refreshed (header badge), add_to_cart pushed; anything else →
 * the spec's warning toast. A remembered cart that no longer exists is forgotten and the default cart used.
 */
export function useAddToCart() {
  const queryClient = useQueryClient();
  const profile = useUserProfile().data;
  const bpNumber = profile?.currentBpNumber ?? null;
  const inIdsContext = Boolean(profile?.idsContextId);
  return useMutation({
    mutationFn: async ({ productInstanceId, quantity }: AddToCartInput) => {
      const cartId = currentCartId(inIdsContext);
      try {
        return await postCartItem(cartId, productInstanceId, quantity);
      } catch (error) {
        if (cartId !== undefined && error instanceof ApiError && error.status === 404) {
          cartMemory.clear();
          return postCartItem(undefined, productInstanceId, quantity);
        }
        throw error;
      }
    },
    onSuccess: (_, { quantity, item }) => {
      toast.success(messages.cartItemAdded, { durationMs: timings.toastCartAddedMs });
      void queryClient.invalidateQueries({ queryKey: queryKeys.carts(bpNumber) });
      trackEcommerce('add_to_cart', {
        value: item.price !== undefined ? Math.round(item.price * quantity * 100) / 100 : undefined,
        items: [{ ...item, quantity }],
      });
    },
    onError: () => {
      toast.warning(messages.cartItemAddFailed, { durationMs: timings.toastCartAddedMs });
    },
  });
}
