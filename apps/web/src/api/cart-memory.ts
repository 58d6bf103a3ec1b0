import { useSyncExternalStore } from 'react';

/**
 * The buyer's chosen cart is remembered for the browser session (spec: current cart). Switching the
 * business partner and signing out forget it.
 */
const CART_MEMORY_KEY = 'shk.currentCartId';

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const cartMemory = {
  get: (): string | null => sessionStorage.getItem(CART_MEMORY_KEY),
  set: (cartId: string) => {
    sessionStorage.setItem(CART_MEMORY_KEY, cartId);
    emit();
  },
  clear: () => {
    sessionStorage.removeItem(CART_MEMORY_KEY);
    emit();
  },
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** The remembered cart id; components re-render when another part of the page chooses a cart. */
export function useRememberedCartId(): string | null {
  return useSyncExternalStore(cartMemory.subscribe, cartMemory.get, () => null);
}
