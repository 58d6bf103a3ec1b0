/**
 * Number of items in the buyer's current cart, shown on the header badge.
 * Placeholder until the carts issue reads it from GET /v1/MultiCarts/{id}.
 */
export function useCartItemCount(): number {
  return 0;
}
