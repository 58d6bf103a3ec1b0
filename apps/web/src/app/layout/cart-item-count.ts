import { limits } from '@shk/contracts';
import { useCurrentCart } from '../../api/carts';

/** Number of items in the buyer's current cart (overview row of GET /v1/MultiCarts), shown on the header badge. */
export function useCartItemCount(): number {
  return useCurrentCart().current?.itemCount ?? 0;
}

/** Flyout cart names longer than 20 characters are cut to 18 plus dots (spec §2). */
export function flyoutCartName(name: string): string {
  return name.length > limits.flyoutCartNameMax ? `${name.slice(0, limits.flyoutCartNameCut)}...` : name;
}
