import { z } from 'zod';
import {
  CartOverview,
  CreateCartRequest,
  IdParams,
  DeliveryCostResult,
  MultiCart,
  RenameCartRequest,
  Role,
  SupplierOrderValue,
  UpdateCartRequest,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { CartsService } from './carts.service.ts';
import { onlyIdsCart, idParam } from './ids-cart-scope.ts';
import type { OfferCatalog } from './offer-catalog.ts';

const CartIdParams = IdParams;
const buyer = [Role.Buyer] as const;

/** `totalsStamp`: lets the overview keep each cart's totals (see `CartsService`); without it they are priced per call. */
export function cartRoutes(offers: OfferCatalog, totalsStamp?: (buyerBpNumber: string) => string | null) {
  return async function registerCartRoutes(app: App, deps: AppDeps) {
    const { db } = deps;
    const carts = new CartsService(db, offers, totalsStamp);

    app.get(
      '/v1/MultiCarts',
      {
        config: {
          roles: buyer,
          ids: 'allowed',
          // Kept per caller until a cart, a line or a pricing input changes, while the totals may be kept at all.
          readModel: {
            tables: [
              'carts',
              'cart_items',
              'cart_totals',
              'catalogue_state',
              'supplier_customers',
              'units',
              'product_offers',
              'catalogue_offer_prices',
            ],
            vary: (request) => {
              const bp = callerOf(request).bpNumber;
              return bp ? (totalsStamp?.(bp) ?? null) : null;
            },
          },
        },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Warenkörbe des aktuellen Geschäftspartners',
          response: { 200: z.array(CartOverview) },
        },
      },
      async (request) => {
        const contextId = callerOf(request).idsContextId;
        const list = await carts.list(currentPartnerOf(request), contextId);
        if (!contextId) return list;
        // An IDS session sees only its cart: a punchout session's own cart, else the partner's default cart.
        const own = await carts.sessionCartId(contextId);
        return list.filter((cart) => (own ? cart.id === own : cart.isDefault));
      },
    );

    app.post(
      '/v1/MultiCarts',
      {
        config: { roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Warenkorb anlegen',
          body: CreateCartRequest,
          response: { 201: MultiCart },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await carts.create(currentPartnerOf(request), callerOf(request).userId, request.body.name)),
    );

    app.get(
      '/v1/MultiCarts/Default',
      {
        // Creates the default cart on first use.
        config: { ids: 'allowed', roles: buyer, changesReadModels: true },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Standard-Warenkorb (wird bei Bedarf angelegt)',
          response: { 200: MultiCart },
        },
      },
      async (request) => {
        const bp = currentPartnerOf(request);
        const cart = await carts.defaultCart(bp, callerOf(request).userId, callerOf(request).idsContextId);
        return carts.get(bp, cart.id);
      },
    );

    app.post(
      '/v1/MultiCarts/deliveryCost',
      {
        config: { ids: 'allowed', roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Lieferkosten je Lieferant für Bestellwerte',
          body: z.object({ supplierOrderValues: z.array(SupplierOrderValue).max(200) }),
          response: { 200: z.array(DeliveryCostResult) },
        },
      },
      async (request) => carts.deliveryCosts(request.body.supplierOrderValues),
    );

    app.get(
      '/v1/MultiCarts/:id',
      {
        config: { ids: onlyIdsCart(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Warenkorb mit Positionen',
          params: CartIdParams,
          response: { 200: MultiCart },
        },
      },
      async (request) => carts.get(currentPartnerOf(request), request.params.id),
    );

    app.put(
      '/v1/MultiCarts/:id',
      {
        config: { ids: onlyIdsCart(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Projekt, Lieferadresse und Lieferdatum des Warenkorbs',
          params: CartIdParams,
          body: UpdateCartRequest,
          response: { 200: MultiCart },
        },
      },
      async (request) => carts.updateDetails(currentPartnerOf(request), request.params.id, request.body),
    );

    app.put(
      '/v1/MultiCarts/:id/name',
      {
        config: { roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Warenkorb umbenennen',
          params: CartIdParams,
          body: RenameCartRequest,
          response: { 200: MultiCart },
        },
      },
      async (request) => carts.rename(currentPartnerOf(request), request.params.id, request.body.name),
    );

    app.put(
      '/v1/MultiCarts/:id/items',
      {
        config: { ids: onlyIdsCart(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Positionen ersetzen (leere Liste leert den Warenkorb)',
          params: CartIdParams,
          body: z.object({
            items: z
              .array(z.object({ id: z.number().int().positive() }))
              .max(0, 'Nur das Leeren des Warenkorbs wird unterstützt.'),
          }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await carts.clear(currentPartnerOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/v1/MultiCarts/:id',
      {
        config: { roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Warenkorb löschen',
          params: CartIdParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await carts.remove(currentPartnerOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
