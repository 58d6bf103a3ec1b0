/**
 * Public face of the orders module: Customer orders and checkout.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { ordersRoutes, reorderRoutes } from './orders.routes.ts';
export { checkoutRoutes } from './checkout.routes.ts';
export { OrdersService } from './orders.service.ts';
export { CheckoutService } from './checkout.service.ts';
