/**
 * Public face of the carts module: Carts and cart items, quick order, and the offer catalogue carts and checkout price their lines with.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { cartRoutes } from './carts.routes.ts';
export { cartItemRoutes } from './cart-items.routes.ts';
export { quickOrderRoutes } from './quick-order.routes.ts';
export { CartsService, type CartItemRow, type CartRow } from './carts.service.ts';
export { CartItemsService } from './cart-items.service.ts';
export { QuickOrderService } from './quick-order.service.ts';
export { catalogueOfferCatalog } from './catalogue-offers.ts';
export { lineTotal, type OfferCatalog, type OfferPricing, type OfferSnapshot } from './offer-catalog.ts';
export { deliveryCostFor } from './delivery-cost.ts';
