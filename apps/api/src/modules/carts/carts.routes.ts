import { z } from 'zod';
import { CartOverview, CreateCartRequest, DeliveryCostResult, MultiCart, RenameCartRequest, Role, SupplierOrderValue, UpdateCartRequest } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { notFound } from '../../http/problem.ts';
import { CartsService } from './carts.service.ts';
import { deliveryCostFor } from './delivery-cost.ts';
import { supplierSettings, findCart } from './carts.repo.ts';
import type { OfferCatalog } from './offer-catalog.ts';
import { CheckoutService } from '../orders/checkout.service.ts';

export const CartIdParams = z.object({ id: z.coerce.number().int().positive().max(2 ** 53) });
const buyer = [Role.Buyer] as const;

export function cartRoutes(offers: OfferCatalog) {
  return async function registerCartRoutes(app: App, deps: AppDeps) {
    const { db } = deps;
    const carts = new CartsService(db, offers);
    const checkout = new CheckoutService(deps, offers, carts);

    app.get('/v1/MultiCarts', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Warenkörbe des aktuellen Geschäftspartners', response: { 200: z.array(CartOverview) } },
    }, async (request) => carts.list(currentPartnerOf(request)));

    app.post('/v1/MultiCarts', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Warenkorb anlegen', body: CreateCartRequest, response: { 201: MultiCart } },
    }, async (request, reply) => reply.status(201).send(await carts.create(currentPartnerOf(request), callerOf(request).userId, request.body.name)));

    app.get('/v1/MultiCarts/Default', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Standard-Warenkorb (wird bei Bedarf angelegt)', response: { 200: MultiCart } },
    }, async (request) => {
      const bp = currentPartnerOf(request);
      const cart = await carts.defaultCart(bp, callerOf(request).userId);
      return carts.get(bp, cart.id);
    });

    app.post('/v1/MultiCarts/deliveryCost', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkörbe'], summary: 'Lieferkosten je Lieferant für Bestellwerte',
        body: z.object({ supplierOrderValues: z.array(SupplierOrderValue).max(200) }),
        response: { 200: z.array(DeliveryCostResult) },
      },
    }, async (request) => {
      const values = request.body.supplierOrderValues;
      const settings = await supplierSettings(db.$client, values.map((v) => v.supplierBusinessPartnerNo));
      return values.map((v) => {
        const s = settings.get(v.supplierBusinessPartnerNo);
        if (!s) throw notFound(`Lieferant ${v.supplierBusinessPartnerNo} nicht gefunden`);
        return { supplierBusinessPartnerNo: v.supplierBusinessPartnerNo, ...deliveryCostFor(v.orderValue, s) };
      });
    });

    app.get('/v1/MultiCarts/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Warenkorb mit Positionen', params: CartIdParams, response: { 200: MultiCart } },
    }, async (request) => carts.get(currentPartnerOf(request), request.params.id));

    app.put('/v1/MultiCarts/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Projekt, Lieferadresse und Lieferdatum des Warenkorbs', params: CartIdParams, body: UpdateCartRequest, response: { 200: MultiCart } },
    }, async (request) => carts.updateDetails(currentPartnerOf(request), request.params.id, request.body));

    app.put('/v1/MultiCarts/:id/name', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Warenkorb umbenennen', params: CartIdParams, body: RenameCartRequest, response: { 200: MultiCart } },
    }, async (request) => carts.rename(currentPartnerOf(request), request.params.id, request.body.name));

    app.put('/v1/MultiCarts/:id/items', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkörbe'], summary: 'Positionen ersetzen (leere Liste leert den Warenkorb)', params: CartIdParams,
        body: z.object({ items: z.array(z.object({ id: z.number().int().positive() })).max(0, 'Nur das Leeren des Warenkorbs wird unterstützt.') }),
        response: { 204: z.null() },
      },
    }, async (request, reply) => {
      const bp = currentPartnerOf(request);
      if (!(await findCart(db.$client, bp, request.params.id))) throw notFound('Warenkorb nicht gefunden');
      await db.$client.query('DELETE FROM cart_items WHERE cart_id = $1', [request.params.id]);
      await db.$client.query('UPDATE carts SET project_id = NULL, delivery_address_id = NULL, delivery_date = NULL, updated_at = now() WHERE id = $1', [request.params.id]);
      return reply.status(204).send(null);
    });

    app.delete('/v1/MultiCarts/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkörbe'], summary: 'Warenkorb löschen', params: CartIdParams, response: { 204: z.null() } },
    }, async (request, reply) => {
      await carts.remove(currentPartnerOf(request), request.params.id);
      return reply.status(204).send(null);
    });

    app.post('/v1/MultiCarts/:id/checkout', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkörbe'], summary: 'Bestellung auslösen', params: CartIdParams,
        response: { 200: z.object({ customerOrderNumber: z.string() }) },
      },
    }, async (request) => checkout.checkout(callerOf(request), currentPartnerOf(request), request.params.id));
  };
}
