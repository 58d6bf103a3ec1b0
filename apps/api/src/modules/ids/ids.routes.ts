import { z } from 'zod';
import {
  IdsCart,
  IdsCartItem,
  IdsCredentials,
  IdsSendPayload,
  IdsTokenResponse,
  Role,
  UpdateIdsCartItem,
  UpdateIdsCredentials,
} from '@shk/contracts';
import type { App } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import type { IdsService } from './ids.service.ts';

const buyer = [Role.Buyer] as const;
const tags = ['IDS-Connect'];
const ContextParams = z.object({ idsContextId: z.string().trim().min(1).max(64) });
const ContextQuery = z.object({ idsContextId: z.string().trim().min(1).max(64) });
const ItemParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});
/** Where the browser opens the same form as a page of our origin (GET /ids/return/{code}, single use). */
export const IDS_RETURN_HEADER = 'x-ids-return-page';

/** Both return calls answer text/html (no JSON schema): a self-submitting form to the hook URL. */
const htmlDescription =
  'Antwort: selbst absendendes HTML-Formular (Feld warenkorb) an die hookurl der Handwerkersoftware.';

export function idsRoutes(service: IdsService) {
  return async function registerIdsRoutes(app: App) {
    app.get(
      '/v1/Ids',
      {
        config: { roles: 'public' },
        schema: {
          tags,
          summary: 'Einmal-Code der IDS-Anmeldung gegen Tokens tauschen (einmalig, 60 s gültig)',
          security: [],
          querystring: z.object({ code: z.string().trim().min(1).max(200) }),
          response: { 200: IdsTokenResponse },
        },
      },
      async (request) => service.exchange(request.query.code),
    );

    app.post(
      '/v1/Ids/complete',
      {
        config: { roles: buyer, changesCaller: true, ids: 'allowed' },
        schema: {
          tags,
          summary: 'Warenkorb an die Handwerkersoftware zurückgeben (optional vorher bestellen)',
          querystring: ContextQuery.extend({
            withCheckout: z
              .enum(['true', 'false'])
              .default('false')
              .transform((v) => v === 'true'),
          }),
          description: htmlDescription,
        },
      },
      async (request, reply) => {
        const page = await service.complete(callerOf(request), request.query.idsContextId, request.query.withCheckout);
        return reply.header(IDS_RETURN_HEADER, page.returnUrl).type('text/html; charset=utf-8').send(page.html);
      },
    );

    app.post(
      '/v1/Ids/Send',
      {
        config: { roles: buyer, changesCaller: true, ids: 'allowed' },
        schema: {
          tags,
          summary: 'Einen Artikel an die Handwerkersoftware senden (Aktion as)',
          querystring: ContextQuery,
          body: IdsSendPayload,
          description: htmlDescription,
        },
      },
      async (request, reply) => {
        const page = await service.send(callerOf(request), request.query.idsContextId, request.body);
        return reply.header(IDS_RETURN_HEADER, page.returnUrl).type('text/html; charset=utf-8').send(page.html);
      },
    );

    app.post(
      '/v1/Ids/Logout',
      {
        config: { roles: buyer, changesCaller: true, ids: 'allowed' },
        schema: {
          tags,
          summary: 'IDS-Sitzung abmelden (ihr Token gilt danach nicht mehr; eine normale Sitzung bleibt unberührt)',
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.logout(callerOf(request));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/v1/IdsCarts/:idsContextId',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: {
          tags,
          summary: 'IDS-Vorwarenkorb mit Zuordnungsstatus',
          params: ContextParams,
          response: { 200: IdsCart },
        },
      },
      async (request) => service.cart(callerOf(request), request.params.idsContextId),
    );

    app.post(
      '/v1/IdsCarts/:idsContextId',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: {
          tags,
          summary: 'Zugeordnete Positionen in den Warenkorb übernehmen (201; bereits übernommen: 200)',
          params: ContextParams,
          response: {
            200: z.object({ cartId: z.number().int() }),
            201: z.object({ cartId: z.number().int() }),
          },
        },
      },
      async (request, reply) => {
        const result = await service.moveToCart(callerOf(request), request.params.idsContextId);
        return reply.status(result.created ? 201 : 200).send({ cartId: result.cartId });
      },
    );

    app.delete(
      '/v1/IdsCarts/:idsContextId/items',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: { tags, summary: 'Alle Positionen des IDS-Vorwarenkorbs löschen', params: ContextParams },
      },
      async (request, reply) => {
        await service.deleteAll(callerOf(request), request.params.idsContextId);
        return reply.status(204).send();
      },
    );

    app.put(
      '/v1/IdsCartItems/:id',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: {
          tags,
          summary: 'Lieferant, Artikel und Menge einer IDS-Position festlegen',
          params: ItemParams,
          body: UpdateIdsCartItem,
          response: { 200: IdsCartItem },
        },
      },
      async (request) => service.updateItem(callerOf(request), request.params.id, request.body),
    );

    app.delete(
      '/v1/IdsCartItems/:id',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: { tags, summary: 'IDS-Position löschen', params: ItemParams },
      },
      async (request, reply) => {
        await service.deleteItem(callerOf(request), request.params.id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/v1/IdsCredentials',
      {
        config: { roles: buyer, ids: 'allowed' },
        schema: {
          tags,
          summary: 'IDS-Zugangsdaten des Benutzers beim aktuellen Geschäftspartner',
          response: { 200: IdsCredentials },
        },
      },
      async (request) => service.credentials(callerOf(request), currentPartnerOf(request)),
    );

    app.put(
      '/v1/IdsCredentials',
      {
        config: { roles: buyer },
        schema: {
          tags,
          summary: 'IDS-Zugangsdaten setzen (Kundennummer = aktueller Geschäftspartner)',
          body: UpdateIdsCredentials,
          response: { 200: IdsCredentials },
        },
      },
      async (request) => service.saveCredentials(callerOf(request), currentPartnerOf(request), request.body),
    );
  };
}
