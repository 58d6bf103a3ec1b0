import type { CartItem, MultiCart } from '../../api/carts';
import { trackEcommerce, type AnalyticsItem } from '../../lib/analytics';
import { round2 } from '@shk/contracts';

/** A cart item in the GA4 ecommerce item shape (price = net value of one unit of the item's quantity). */
export function analyticsItemOf(item: CartItem, index?: number): AnalyticsItem {
  const price = item.netValue !== null && item.quantity > 0 ? round2(item.netValue / item.quantity) : undefined;
  return {
    item_id: item.productInstanceId,
    item_name: item.productName ?? item.articleNumber,
    item_brand: item.brandName ?? undefined,
    affiliation: item.supplierBusinessPartnerNo,
    price,
    quantity: item.quantity,
    index,
  };
}

const valueOf = (items: readonly CartItem[]) => round2(items.reduce((sum, item) => sum + (item.netValue ?? 0), 0));

export function trackRemoveFromCart(items: readonly CartItem[]) {
  if (items.length === 0) return;
  trackEcommerce('remove_from_cart', {
    value: valueOf(items),
    items: items.map((item, index) => analyticsItemOf(item, index)),
  });
}

/** Orderable items of a cart (unavailable ones are hidden and not ordered). */
const orderableItems = (cart: MultiCart) => cart.items.filter((item) => !cart.unavailableItemIds.includes(item.id));

export function trackBeginCheckout(cart: MultiCart) {
  const items = orderableItems(cart);
  trackEcommerce('begin_checkout', {
    value: cart.totalNetValue,
    items: items.map((item, index) => analyticsItemOf(item, index)),
  });
}

export function trackPurchase(cart: MultiCart, customerOrderNumber: string) {
  const items = orderableItems(cart);
  trackEcommerce('purchase', {
    transaction_id: customerOrderNumber,
    value: cart.totalNetValue,
    shipping: cart.totalDeliveryCost,
    items: items.map((item, index) => analyticsItemOf(item, index)),
  });
}

/** A changed quantity in the cart is an add_to_cart (more) or remove_from_cart (fewer) of the difference. */
export function trackQuantityChange(item: CartItem, quantity: number) {
  const delta = quantity - item.quantity;
  if (delta === 0) return;
  const analyticsItem = { ...analyticsItemOf(item), quantity: Math.abs(delta) };
  const value = analyticsItem.price !== undefined ? round2(analyticsItem.price * Math.abs(delta)) : undefined;
  trackEcommerce(delta > 0 ? 'add_to_cart' : 'remove_from_cart', { value, items: [analyticsItem] });
}
