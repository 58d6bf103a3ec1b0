import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cartMessages, messages, timings } from '@shk/contracts';
import { cartMemory } from '../../api/cart-memory';
import {
  cartKeys,
  cartsApi,
  invalidateCarts,
  type CartItem,
  type CartItemProperties,
  type MultiCart,
} from '../../api/carts';
import { problemTitle } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { useUserProfile } from '../../api/session';
import { toast } from '../../ui/toast';
import { trackQuantityChange, trackRemoveFromCart } from './cart-analytics';

/**
 * 'Die vorgenommenen Änderungen wurden erfasst', debounced 3 s (spec §4/§9): a burst of autosaves gives one
 * toast 3 s after the last of them.
 */
let changesSavedTimer: ReturnType<typeof setTimeout> | undefined;
export function announceChangesSaved() {
  clearTimeout(changesSavedTimer);
  changesSavedTimer = setTimeout(() => toast.success(cartMessages.changesSaved), timings.changesSavedDebounceMs);
}

/** Drops a 'changes saved' toast still waiting for its debounce (the order replaces it). */
export function cancelChangesSaved() {
  clearTimeout(changesSavedTimer);
  changesSavedTimer = undefined;
}

/** The properties the server holds for an item, in the shape the update call sends. */
const propertiesOf = (item: CartItem): CartItemProperties => ({
  quantity: item.quantity,
  projectId: item.projectId,
  deliveryDate: item.deliveryDate,
  deliveryAddressId: item.deliveryAddressId,
  comment: item.comment,
});

/** Empty project, date or note are sent as null (spec §5). */
function normalise(properties: CartItemProperties): CartItemProperties {
  const comment = properties.comment?.trim() ?? '';
  return {
    quantity: properties.quantity,
    projectId: properties.projectId || null,
    deliveryDate: properties.deliveryDate || null,
    deliveryAddressId: properties.deliveryAddressId || null,
    comment: comment === '' ? null : comment,
  };
}

const sameProperties = (a: CartItemProperties, b: CartItemProperties) =>
  a.quantity === b.quantity &&
  a.projectId === b.projectId &&
  a.deliveryDate === b.deliveryDate &&
  a.deliveryAddressId === b.deliveryAddressId &&
  (a.comment ?? null) === (b.comment ?? null);

/** Cart mutations of one cart; every success refreshes the cart, the list and the header badge. */
export function useCartActions(cartId: number) {
  const queryClient = useQueryClient();
  const bpNumber = useUserProfile().data?.currentBpNumber ?? null;
  const detailKey = queryKeys.partnerScoped(bpNumber, ...cartKeys.detail(cartId));
  const refresh = () => invalidateCarts(queryClient);

  /** Writes the cart's new state into the cache at once (autosave feels instant), then refetches. */
  const patchItem = (itemId: number, properties: CartItemProperties) =>
    queryClient.setQueryData<MultiCart>(
      detailKey,
      (cart) =>
        cart && {
          ...cart,
          items: cart.items.map((item) => (item.id === itemId ? { ...item, ...properties } : item)),
        },
    );

  const updateItem = useMutation({
    mutationFn: async ({ item, changes }: { item: CartItem; changes: Partial<CartItemProperties> }) => {
      const next = normalise({ ...propertiesOf(item), ...changes });
      // Autosave only when something differs (spec §4).
      if (sameProperties(next, normalise(propertiesOf(item)))) return false;
      patchItem(item.id, next);
      await cartsApi.updateItem(item.id, next);
      return true;
    },
    onSuccess: (saved, { item, changes }) => {
      if (!saved) return;
      if (changes.quantity !== undefined) trackQuantityChange(item, changes.quantity);
      announceChangesSaved();
      void refresh();
    },
    onError: (error) => {
      toast.error(problemTitle(error, messages.genericRetry));
      void refresh();
    },
  });

  const removeItem = useMutation({
    mutationFn: async (item: CartItem) => cartsApi.removeItem(item.id),
    onSuccess: (_, item) => {
      trackRemoveFromCart([item]);
      void refresh();
    },
    onError: () => toast.error(messages.genericRetry),
  });

  /** Items whose offer is no longer orderable, removed in one step (204 expected). */
  const removeUnavailable = useMutation({
    mutationFn: async (items: CartItem[]) =>
      cartsApi.removeItems(
        cartId,
        items.map((item) => item.id),
      ),
    onSuccess: (_, items) => {
      trackRemoveFromCart(items);
      void refresh();
    },
    onError: () => toast.error(messages.genericRetry),
  });

  const emptyCart = useMutation({
    mutationFn: async (cart: MultiCart) => cartsApi.empty(cart.id),
    onSuccess: (_, cart) => {
      trackRemoveFromCart(cart.items);
      void refresh();
    },
    onError: () => toast.error(messages.genericRetry),
  });

  const updateDetails = useMutation({
    mutationFn: async ({
      cart,
      changes,
    }: {
      cart: MultiCart;
      changes: Partial<Pick<MultiCart, 'projectId' | 'deliveryAddressId' | 'deliveryDate'>>;
    }) => {
      const next = {
        projectId: cart.projectId || null,
        deliveryAddressId: cart.deliveryAddressId || null,
        deliveryDate: cart.deliveryDate || null,
        ...changes,
      };
      if (
        next.projectId === (cart.projectId || null) &&
        next.deliveryAddressId === (cart.deliveryAddressId || null) &&
        next.deliveryDate === (cart.deliveryDate || null)
      ) {
        return false;
      }
      queryClient.setQueryData<MultiCart>(detailKey, (current) => current && { ...current, ...next });
      await cartsApi.updateDetails(cart.id, {
        ...next,
        deliveryAddressId: next.deliveryAddressId || null,
        projectId: next.projectId || null,
        deliveryDate: next.deliveryDate || null,
      });
      return true;
    },
    onSuccess: (saved) => {
      if (!saved) return;
      announceChangesSaved();
      void refresh();
    },
    onError: (error) => {
      toast.error(problemTitle(error, messages.genericRetry));
      void refresh();
    },
  });

  return { updateItem, removeItem, removeUnavailable, emptyCart, updateDetails };
}

/** Remembers a cart as the current one for the session (header widget and add-to-cart follow). */
export const selectCart = (cartId: number) => cartMemory.set(String(cartId));
