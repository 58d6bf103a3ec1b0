/**
 * The buyer's chosen cart is remembered for the browser session (spec: current cart). Switching the
 * business partner and signing out forget it.
 */
export const CART_MEMORY_KEY = 'shk.currentCartId';

export const cartMemory = {
  get: (): string | null => sessionStorage.getItem(CART_MEMORY_KEY),
  set: (cartId: string) => sessionStorage.setItem(CART_MEMORY_KEY, cartId),
  clear: () => sessionStorage.removeItem(CART_MEMORY_KEY),
};
