import { z } from 'zod';
import type { MultipartFile } from '@fastify/multipart';
import { Attachment, CreateCartItemRequest, FeatureSettingKey, ProductOrderableStatus, Role, UpdateCartItemRequest, cartMessages } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem, badRequest, notFound } from '../../http/problem.ts';
import { inTransaction } from '../../db/pool.ts';
import { readListSetting, readNumberSetting } from '../settings/settings.service.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { cleanFileName, contentTypes, extensionOf, isAcceptedFile } from '../../lib/file-types.ts';
import { CartsService, checkDeliveryDate } from './carts.service.ts';
import { findCart, findItem } from './carts.repo.ts';
import type { OfferCatalog } from './offer-catalog.ts';

const buyer = [Role.Buyer] as const;
const ItemParams = z.object({ id: z.coerce.number().int().positive().max(2 ** 53) });
const AttachmentParams = z.object({ cartItemId: z.coerce.number().int().positive().max(2 ** 53), id: z.coerce.number().int().positive().max(2 ** 53) });

export function cartItemRoutes(offers: OfferCatalog) {
  return async function registerCartItemRoutes(app: App, { db }: AppDeps) {
    const carts = new CartsService(db, offers);

    app.post('/v1/CartItems', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkorbpositionen'], summary: 'Artikel in einen Warenkorb legen (ohne cartId: Standard-Warenkorb)',
        body: CreateCartItemRequest, response: { 201: z.object({ productInstanceId: z.string(), cartItemId: z.number().int(), cartId: z.number().int() }) },
      },
    }, async (request, reply) => {
      const bp = currentPartnerOf(request);
      const body = request.body;
      const cart = body.cartId ? await findCart(db.$client, bp, body.cartId) : await carts.defaultCart(bp, callerOf(request).userId);
      if (!cart) throw notFound(cartMessages.cartNotFound);
      const offer = (await offers.findOffers(bp, [body.productInstanceId])).get(body.productInstanceId);
      if (!offer) throw notFound('Artikel nicht gefunden');
      // Server-side orderability: only offers of approved, active relations can be added.
      if (offer.orderableStatus !== ProductOrderableStatus.Orderable) {
        throw new HttpProblem(400, cartMessages.notOrderable, { detail: `Bestellbarkeit ${offer.orderableStatus}` });
      }
      const itemId = await inTransaction(db, async (tx) => {
        const c = tx.$client;
        await c.query('SELECT id FROM carts WHERE id = $1 FOR UPDATE', [cart.id]);
        const existing = (await c.query<{ id: number; quantity: number }>('SELECT id, quantity FROM cart_items WHERE cart_id = $1 AND product_instance_id = $2', [cart.id, offer.productInstanceId])).rows[0];
        const quantity = Number(existing?.quantity ?? 0) + body.quantity;
        CartsService.checkQuantity(quantity, offer.minOrderQuantity);
        if (existing) {
          await c.query('UPDATE cart_items SET quantity = $2, comment = COALESCE($3, comment), updated_at = now() WHERE id = $1', [existing.id, quantity, body.comment || null]);
          return Number(existing.id);
        }
        const { rows } = await c.query<{ id: number }>(
          `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity, comment)
           VALUES ($1,$2,$3,$4,$5,$6) RETURNING id`,
          [cart.id, offer.productInstanceId, offer.supplierBpNumber, offer.articleNumber, quantity, body.comment || null]);
        await c.query('UPDATE carts SET updated_at = now() WHERE id = $1', [cart.id]);
        return Number(rows[0].id);
      });
      return reply.status(201).send({ productInstanceId: offer.productInstanceId, cartItemId: itemId, cartId: cart.id });
    });

    app.put('/v1/CartItems/:id/properties', {
      config: { roles: buyer },
      schema: { tags: ['Warenkorbpositionen'], summary: 'Menge, Projekt, Lieferdatum, Lieferadresse und Notiz einer Position', params: ItemParams, body: UpdateCartItemRequest, response: { 200: z.object({ id: z.number().int() }) } },
    }, async (request) => {
      const bp = currentPartnerOf(request);
      const item = await findItem(db.$client, bp, request.params.id);
      if (!item) throw notFound('Position nicht gefunden');
      const body = request.body;
      await carts.checkReferences(db.$client, bp, body);
      checkDeliveryDate(body.deliveryDate, 'body.deliveryDate');
      const offer = (await offers.findOffers(bp, [item.product_instance_id])).get(item.product_instance_id);
      CartsService.checkQuantity(body.quantity, offer?.minOrderQuantity ?? 1);
      // Empty project, date or note are stored as null.
      await db.$client.query(
        `UPDATE cart_items SET quantity = $2,
           project_id = CASE WHEN $3::boolean THEN $4 ELSE project_id END,
           delivery_date = CASE WHEN $5::boolean THEN $6::date ELSE delivery_date END,
           delivery_address_id = CASE WHEN $7::boolean THEN $8 ELSE delivery_address_id END,
           comment = CASE WHEN $9::boolean THEN $10 ELSE comment END,
           updated_at = now()
         WHERE id = $1`,
        [item.id, body.quantity, body.projectId !== undefined, body.projectId ?? null, body.deliveryDate !== undefined, body.deliveryDate || null,
          body.deliveryAddressId !== undefined, body.deliveryAddressId ?? null, body.comment !== undefined, body.comment?.trim() || null]);
      return { id: item.id };
    });

    app.delete('/v1/CartItems/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkorbpositionen'], summary: 'Position entfernen', params: ItemParams, response: { 204: z.null() } },
    }, async (request, reply) => {
      const item = await findItem(db.$client, currentPartnerOf(request), request.params.id);
      if (!item) throw notFound('Position nicht gefunden');
      await db.$client.query('DELETE FROM cart_items WHERE id = $1', [item.id]);
      return reply.status(204).send(null);
    });

    app.delete('/v1/CartItems', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkorbpositionen'], summary: 'Mehrere Positionen eines Warenkorbs entfernen',
        querystring: z.object({ cartId: z.coerce.number().int().positive().max(2 ** 53), id: z.union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(500)]) }),
        response: { 204: z.null() },
      },
    }, async (request, reply) => {
      const bp = currentPartnerOf(request);
      if (!(await findCart(db.$client, bp, request.query.cartId))) throw notFound(cartMessages.cartNotFound);
      const ids = Array.isArray(request.query.id) ? request.query.id : [request.query.id];
      await db.$client.query('DELETE FROM cart_items WHERE cart_id = $1 AND id = ANY($2)', [request.query.cartId, ids]);
      return reply.status(204).send(null);
    });

    app.post('/v1/CartItems/:cartItemId/attachments', {
      config: { roles: buyer },
      schema: {
        tags: ['Warenkorbpositionen'], summary: 'Anhänge hochladen (multipart, Feld files)', consumes: ['multipart/form-data'],
        params: z.object({ cartItemId: AttachmentParams.shape.cartItemId }), response: { 200: z.array(Attachment) },
      },
    }, async (request) => {
      const bp = currentPartnerOf(request);
      const item = await findItem(db.$client, bp, request.params.cartItemId);
      if (!item) throw notFound('Position nicht gefunden');
      if (!request.isMultipart()) throw badRequest('Ungültige Anfrage', 'multipart/form-data erwartet');
      const maxCount = await readNumberSetting(db, FeatureSettingKey.AttachmentsMaxFilesCount);
      const maxMb = await readNumberSetting(db, FeatureSettingKey.AttachmentsMaxFileSize);
      const allowed = await readListSetting(db, FeatureSettingKey.AttachmentsAllowedFileFormats);
      const files: { name: string; content: Buffer }[] = [];
      for await (const part of request.parts({ limits: { fileSize: maxMb * 1024 * 1024, files: maxCount + 1 } })) {
        if (part.type !== 'file') continue;
        const file = part as MultipartFile;
        const content = await file.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpProblem(400, cartMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
          throw error;
        });
        files.push({ name: cleanFileName(file.filename), content });
      }
      if (!files.length) throw badRequest('Keine Datei übermittelt');
      if (files.length > maxCount) throw new HttpProblem(400, cartMessages.maxFileCount(maxCount), { type: 'maxFileCount' });
      for (const f of files) {
        if (!isAcceptedFile(f.name, f.content, allowed)) throw new HttpProblem(400, cartMessages.fileFormat, { type: 'fileFormat', detail: f.name });
      }
      return inTransaction(db, async (tx) => {
        const c = tx.$client;
        await c.query('SELECT id FROM cart_items WHERE id = $1 FOR UPDATE', [item.id]);
        const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM cart_item_attachments WHERE cart_item_id = $1', [item.id]);
        // With a maximum of 1 a new file replaces the old one; otherwise the count must stay within the maximum.
        if (maxCount === 1) await c.query('DELETE FROM cart_item_attachments WHERE cart_item_id = $1', [item.id]);
        else if (rows[0].n + files.length > maxCount) throw new HttpProblem(400, cartMessages.maxFileCount(maxCount), { type: 'maxFileCount' });
        for (const f of files) {
          await c.query('INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, content) VALUES ($1,$2,$3,$4,$5)',
            [item.id, f.name, contentTypes[extensionOf(f.name)] ?? 'application/octet-stream', f.content.length, f.content]);
        }
        const all = await c.query<{ id: number; file_name: string; size_bytes: number }>('SELECT id, file_name, size_bytes FROM cart_item_attachments WHERE cart_item_id = $1 ORDER BY id', [item.id]);
        return all.rows.map((r) => ({ id: Number(r.id), fileName: r.file_name, size: r.size_bytes }));
      });
    });

    app.get('/v1/CartItems/:cartItemId/attachments/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkorbpositionen'], summary: 'Anhang herunterladen', params: AttachmentParams },
    }, async (request, reply) => {
      const { rows } = await db.$client.query<{ file_name: string; content_type: string; content: Buffer }>(
        `SELECT a.file_name, a.content_type, a.content FROM cart_item_attachments a JOIN cart_items i ON i.id = a.cart_item_id JOIN carts c ON c.id = i.cart_id
          WHERE a.id = $1 AND a.cart_item_id = $2 AND c.bp_number = $3`, [request.params.id, request.params.cartItemId, currentPartnerOf(request)]);
      if (!rows[0]) throw notFound('Anhang nicht gefunden');
      return reply.header('content-type', rows[0].content_type).header('content-disposition', attachmentHeader(rows[0].file_name)).send(rows[0].content);
    });

    app.delete('/v1/CartItems/:cartItemId/attachments/:id', {
      config: { roles: buyer },
      schema: { tags: ['Warenkorbpositionen'], summary: 'Anhang löschen', params: AttachmentParams, response: { 204: z.null() } },
    }, async (request, reply) => {
      const { rowCount } = await db.$client.query(
        `DELETE FROM cart_item_attachments a USING cart_items i, carts c
          WHERE a.id = $1 AND a.cart_item_id = $2 AND i.id = a.cart_item_id AND c.id = i.cart_id AND c.bp_number = $3`,
        [request.params.id, request.params.cartItemId, currentPartnerOf(request)]);
      if (!rowCount) throw notFound('Anhang nicht gefunden');
      return reply.status(204).send(null);
    });
  };
}
