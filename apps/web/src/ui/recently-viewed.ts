import { useSyncExternalStore } from 'react';
import { limits } from '@shk/contracts';
import { consentStore, PREFERENCE_STORAGE_PREFIX } from './consent/consent-store';

/** One recently viewed product, enough to show a card without asking the API. */
export interface RecentlyViewedProduct {
  /** Manufacturer product id (manufacturerId~manufacturerPid) – the duplicate key. */
  productId: string;
  productInstanceId: string;
  name: string;
  brand: string;
  imageUrl: string | null;
  manufacturerPid: string;
  /** Element id of the product's top category; at most 4 products are kept per category. */
  category: string;
  viewedAt: string;
}

/** Preference data: the prefix makes the consent store remove it when consent is withdrawn. */
const RECENTLY_VIEWED_KEY = `${PREFERENCE_STORAGE_PREFIX}recentlyViewed`;

const EMPTY: readonly RecentlyViewedProduct[] = [];
type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; list: readonly RecentlyViewedProduct[] } = { raw: null, list: EMPTY };

function read(): readonly RecentlyViewedProduct[] {
  if (!consentStore.has('preferences')) return EMPTY;
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(RECENTLY_VIEWED_KEY);
  } catch {
    return EMPTY;
  }
  if (raw === cache.raw) return cache.list;
  let list: readonly RecentlyViewedProduct[] = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed))
      list = parsed.filter((p): p is RecentlyViewedProduct => typeof p?.productId === 'string');
  } catch {
    list = EMPTY;
  }
  cache = { raw, list };
  return list;
}

/**
 * Adds a product in front (spec: newest first, no duplicates by manufacturer product id, at most 4 per
 * category). Pure, for tests and the store.
 */
export function withViewed(
  list: readonly RecentlyViewedProduct[],
  product: RecentlyViewedProduct,
  perCategory: number = limits.recentlyViewedPerCategory,
): RecentlyViewedProduct[] {
  const next = [product, ...list.filter((p) => p.productId !== product.productId)];
  const counts = new Map<string, number>();
  return next.filter((p) => {
    const count = (counts.get(p.category) ?? 0) + 1;
    counts.set(p.category, count);
    return count <= perCategory;
  });
}

export const recentlyViewed = {
  /** The stored products, newest first; always empty without preference consent. */
  list: read,
  /** Remembers a viewed product – only with preference consent (session storage). */
  add(product: Omit<RecentlyViewedProduct, 'viewedAt'>) {
    if (!consentStore.has('preferences')) return;
    const next = withViewed(read(), { ...product, viewedAt: new Date().toISOString() });
    try {
      sessionStorage.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(next));
    } catch {
      return;
    }
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    // Withdrawing consent removes the data; the list must follow.
    const unsubscribeConsent = consentStore.subscribe(listener);
    return () => {
      listeners.delete(listener);
      unsubscribeConsent();
    };
  },
};

/** The recently viewed products for rendering ('Zuletzt angesehen'), newest first. */
export function useRecentlyViewed(): readonly RecentlyViewedProduct[] {
  return useSyncExternalStore(recentlyViewed.subscribe, recentlyViewed.list, () => EMPTY);
}
