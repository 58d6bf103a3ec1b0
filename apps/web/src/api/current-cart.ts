/** The fields of a cart overview row the choice of the current cart needs. */
export interface CartChoice {
  id: number;
  isDefault: boolean;
}

/**
 * The current cart (buyer-side.md §4): in IDS context always the default cart; otherwise the cart
 * remembered for the session when it still exists, else the default cart (with one cart it is the default).
 */
export function pickCurrentCart<C extends CartChoice>(
  carts: readonly C[],
  inIdsContext: boolean,
  remembered: string | null,
): C | null {
  const fallback = carts.find((c) => c.isDefault) ?? carts[0] ?? null;
  if (inIdsContext) return fallback;
  return carts.find((c) => String(c.id) === remembered) ?? fallback;
}
