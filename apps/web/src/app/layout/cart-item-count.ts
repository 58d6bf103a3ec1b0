import { useCurrentCart } from '../../api/carts';

/** Number of items in the buyer's current cart (overview row of GET /v1/MultiCarts), shown on the header badge. */
export function useCartItemCount(): number {
  return useCurrentCart().current?.itemCount ?? 0;
}
