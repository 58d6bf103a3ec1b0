import { z } from 'zod';
import { CheckoutBody, IdParams, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { CartsService, type OfferCatalog } from '../carts/index.ts';
import { CheckoutService } from './checkout.service.ts';

/**
 * POST /v1/MultiCarts/:id/checkout: the path belongs to the carts, the work to the orders module. It is registered here,
 * beside its service, so that carts do not import orders (orders use the carts' service, never the other way round).
 */
export function checkoutRoutes(offers: OfferCatalog) {
  return async function registerCheckoutRoutes(app: App, deps: AppDeps) {
    const checkout = new CheckoutService(deps, offers, new CartsService(deps.db, offers));

    app.post(
      '/v1/MultiCarts/:id/checkout',
      {
        config: { roles: [Role.Buyer] },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Bestellung auslösen',
          params: IdParams,
          // Optional: a checkout without a body (older clients, tests) orders without reference and note.
          body: CheckoutBody.nullish(),
          response: { 200: z.object({ customerOrderNumber: z.string() }) },
        },
      },
      async (request) =>
        checkout.checkout(callerOf(request), currentPartnerOf(request), request.params.id, {
          orderReference: request.body?.orderReference ?? null,
          orderNote: request.body?.orderNote ?? null,
        }),
    );
  };
}
