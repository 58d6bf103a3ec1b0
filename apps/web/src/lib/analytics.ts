/**
 * The analytics data layer (GA4 ecommerce event shape, as tag managers expect it). Events are
 * pushed to window.dataLayer; a tag manager loaded after marketing consent forwards them.
 * Without consent nothing leaves the browser.
 */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  item_brand?: string;
  item_category?: string;
  /** Supplier business partner number of the offer. */
  affiliation?: string;
  price?: number;
  quantity?: number;
  index?: number;
}

export type EcommerceEventName =
  | 'view_item'
  | 'add_to_cart'
  | 'remove_from_cart'
  | 'begin_checkout'
  | 'purchase'
  | 'add_to_wishlist'
  | 'remove_from_wishlist'
  | 'view_search_results'
  | 'view_item_list';

export interface EcommerceEvent {
  event: EcommerceEventName;
  ecommerce: {
    currency?: 'EUR';
    value?: number;
    transaction_id?: string;
    shipping?: number;
    search_term?: string;
    item_list_name?: string;
    items: AnalyticsItem[];
  };
}

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Pushes one ecommerce event; the previous ecommerce object is cleared first, as GA4 recommends. */
export function trackEcommerce(event: EcommerceEventName, ecommerce: EcommerceEvent['ecommerce']) {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ ecommerce: null });
  window.dataLayer.push({ event, ecommerce: { currency: 'EUR', ...ecommerce } } satisfies EcommerceEvent);
}
