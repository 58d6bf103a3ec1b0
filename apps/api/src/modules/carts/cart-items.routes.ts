import { z } from 'zod';
import {
  Attachment,
  CreateCartItemRequest,
  DbId,
  IdParams,
  Role,
  UpdateCartItemRequest,
  cartMessages,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem, badRequest } from '../../http/problem.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { spoolFileParts, withUploadScratch } from '../../lib/uploads/spooled-upload.ts';
import { CartItemsService } from './cart-items.service.ts';
import { fileStorage } from '../storage/index.ts';
import { onlyIdsCart, onlyIdsCartItem, idParam, cartItemIdParam } from './ids-cart-scope.ts';
import type { OfferCatalog } from './offer-catalog.ts';
import { periodic } from '../../lifecycle.ts';

const buyer = [Role.Buyer] as const;
const AttachmentParams = z.object({ cartItemId: DbId, id: DbId });

export function cartItemRoutes(offers: OfferCatalog) {
  return async function registerCartItemRoutes(app: App, deps: AppDeps) {
    const { db } = deps;
    const items = new CartItemsService(db, offers, fileStorage(deps));
    // Stored attachments nobody names any more go hourly.
    deps.lifecycle.provide(
      'cart attachment sweep',
      periodic(
        () => items.removeUnreferencedAttachments().catch((err) => app.log.error({ err }, 'attachment sweep')),
        3_600_000,
      ),
    );

    app.post(
      '/v1/CartItems',
      {
        config: { ids: onlyIdsCart(db, (r) => (r.body as { cartId?: number }).cartId ?? undefined), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Artikel in einen Warenkorb legen (ohne cartId: Standard-Warenkorb)',
          body: CreateCartItemRequest,
          response: {
            201: z.object({ productInstanceId: z.string(), cartItemId: z.number().int(), cartId: z.number().int() }),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await items.add(
              currentPartnerOf(request),
              callerOf(request).userId,
              request.body,
              callerOf(request).idsContextId,
            ),
          ),
    );

    app.put(
      '/v1/CartItems/:id/properties',
      {
        config: { ids: onlyIdsCartItem(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Menge, Projekt, Lieferdatum, Lieferadresse und Notiz einer Position',
          params: IdParams,
          body: UpdateCartItemRequest,
          response: { 200: z.object({ id: z.number().int() }) },
        },
      },
      async (request) => items.update(currentPartnerOf(request), request.params.id, request.body),
    );

    app.delete(
      '/v1/CartItems/:id',
      {
        config: { ids: onlyIdsCartItem(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Position entfernen',
          params: IdParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await items.remove(currentPartnerOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/v1/CartItems',
      {
        config: { ids: onlyIdsCart(db, (r) => (r.query as { cartId: number }).cartId), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Mehrere Positionen eines Warenkorbs entfernen',
          querystring: z.object({
            cartId: DbId,
            id: z.union([DbId, z.array(DbId).max(500)]),
          }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const ids = Array.isArray(request.query.id) ? request.query.id : [request.query.id];
        await items.removeMany(currentPartnerOf(request), request.query.cartId, ids);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/v1/CartItems/:cartItemId/attachments',
      {
        config: { ids: onlyIdsCartItem(db, cartItemIdParam), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Anhänge hochladen (multipart, Feld files)',
          consumes: ['multipart/form-data'],
          params: z.object({ cartItemId: AttachmentParams.shape.cartItemId }),
          response: { 200: z.array(Attachment) },
        },
      },
      async (request) => {
        const item = await items.item(currentPartnerOf(request), request.params.cartItemId);
        if (!request.isMultipart()) throw badRequest('Ungültige Anfrage', 'multipart/form-data erwartet');
        const rules = await items.attachmentRules();
        const limits = { fileSize: rules.maxMb * 1024 * 1024, files: rules.maxCount + 1 };
        // Each file goes to a scratch file on disk (never whole into memory), is checked there and streamed on.
        return withUploadScratch(deps.config.dataDir, async (dir) => {
          const uploads = await spoolFileParts(request, dir, limits).catch((error: { code?: string }) => {
            if (error.code === 'FST_REQ_FILE_TOO_LARGE')
              throw new HttpProblem(400, cartMessages.maxFileSize(rules.maxMb), { type: 'maxFileSize' });
            throw error;
          });
          await items.checkStorageQuota(
            currentPartnerOf(request),
            uploads.reduce((sum, u) => sum + u.size, 0),
          );
          return items.addAttachments(item.id, uploads, rules);
        });
      },
    );

    app.get(
      '/v1/CartItems/:cartItemId/attachments/:id',
      {
        config: { ids: onlyIdsCartItem(db, cartItemIdParam), roles: buyer },
        schema: { tags: ['Warenkorbpositionen'], summary: 'Anhang herunterladen', params: AttachmentParams },
      },
      async (request, reply) => {
        const file = await items.attachment(currentPartnerOf(request), request.params.cartItemId, request.params.id);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', attachmentHeader(file.fileName))
          .send(file.content);
      },
    );

    app.delete(
      '/v1/CartItems/:cartItemId/attachments/:id',
      {
        config: { ids: onlyIdsCartItem(db, cartItemIdParam), roles: buyer },
        schema: {
          tags: ['Warenkorbpositionen'],
          summary: 'Anhang löschen',
          params: AttachmentParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await items.removeAttachment(currentPartnerOf(request), request.params.cartItemId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
