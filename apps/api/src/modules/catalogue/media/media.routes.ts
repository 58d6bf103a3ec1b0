import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { catalogueProblemTitles as titles, Int4Id, isPublicMediaKind, Role } from '@shk/contracts';
import type { App } from '../../../http/types.ts';
import { HttpProblem } from '../../../http/problem.ts';
import type { CatalogueContext } from '../catalogue.context.ts';
import type { MediaEntry } from '../catalogue.types.ts';
import { loadMediaProducts, mayHaveSignedInMedium, renderMedia, storedMediaKey, type MediaProduct } from './media.ts';
import { topCategoryOf } from '../product-views.ts';
import type { FileStorage } from '../../storage/index.ts';

const MediaParams = z.object({
  productNo: Int4Id,
  file: z.string().min(1).max(200),
});
type MediaParams = z.infer<typeof MediaParams>;

/**
 * Product pictures and documents. Pictures and the manufacturer's technical documents (PUBLIC_MEDIA_KINDS) are public
 * (no token): <img> tags cannot send one, and they are marketing material; URLs carry the internal product number and
 * the file name. Other kinds (a price list, a document of unstated purpose) only through the signed-in route, and a
 * seller gets only those its own catalogue delivered (docs/security.md). Generated media are rendered; files a
 * supplier catalogue delivered in its zip, or named by URL and the media fetcher stored, are sent from the file storage; a
 * URL not stored is a 404 (never a redirect: no open redirect).
 */
export function mediaRoutes(app: App, catalogue: CatalogueContext, storage: FileStorage) {
  app.get(
    '/v1/Media/Products/:productNo/:file',
    {
      config: { roles: 'public' },
      schema: {
        tags: ['Produkte'],
        summary: 'Produktbild (PNG) oder öffentliches Dokument (Datenblatt, Anleitung, 2D/3D) eines Produkts',
        security: [],
        params: MediaParams,
      },
    },
    // A kind that is not public is "not found" here: its existence is not told either.
    async (request, reply) => sendMedium(request.params, reply, (entry) => isPublicMediaKind(entry.type)),
  );

  app.get(
    '/v1/Documents/Products/:productNo/:file',
    {
      config: {
        roles: [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator],
      },
      schema: {
        tags: ['Produkte'],
        summary: 'Dokument eines Produkts für angemeldete Benutzer (z. B. Preisliste)',
        params: MediaParams,
      },
    },
    async (request, reply) => {
      const ctx = await catalogue.callerContext(request);
      return sendMedium(request.params, reply, (entry) => mayHaveSignedInMedium(entry, ctx.conditionsOnlyFor));
    },
  );

  async function sendMedium(params: MediaParams, reply: FastifyReply, allowed: (entry: MediaEntry) => boolean) {
    const meta = await catalogue.meta.get();
    const products = await loadMediaProducts(catalogue.pool(), [params.productNo], (leaf) => topCategoryOf(meta, leaf));
    const product = products.get(params.productNo);
    const entry = product?.media.find((m) => m.file === params.file);
    if (!product || !entry || !allowed(entry))
      throw new HttpProblem(404, titles.mediaNotFound, { detail: params.file });
    return await sendEntry(reply, product, entry, meta.version);
  }

  async function sendEntry(reply: FastifyReply, product: MediaProduct, entry: MediaEntry, version: number) {
    // Documents that are not public may be kept by the browser only, not by a shared cache.
    const cache = isPublicMediaKind(entry.type) ? 'public, max-age=86400' : 'private, max-age=300';
    const disposition = entry.type === '3C' ? 'attachment' : 'inline';
    const fileName = `filename="${entry.file.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(entry.file)}`;
    if (entry.stored) {
      const file = await storage.get(storedMediaKey(entry.stored.supplier, entry.stored.sha256));
      if (!file) throw new HttpProblem(404, titles.mediaNotFound, { detail: entry.file });
      const inline = entry.stored.contentType.startsWith('image/') || entry.stored.contentType === 'application/pdf';
      return reply
        .header('content-type', entry.stored.contentType)
        .header('content-length', entry.stored.size)
        .header('cache-control', cache)
        .header('etag', `"${entry.stored.sha256}"`)
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; ${fileName}`)
        .send(file);
    }
    // A supplier's reference not stored (yet): a web address the media fetcher has not stored, or could not; a file
    // the zip lacked or that was refused. Only stored files are served: never a redirect to the supplier's address.
    if (entry.url !== undefined) throw new HttpProblem(404, titles.mediaNotFound, { detail: entry.file });
    const media = renderMedia(product, entry);
    return reply
      .header('content-type', media.contentType)
      .header('cache-control', cache)
      .header('etag', `"${version}-${product.id}-${media.body.length}"`)
      .header('content-disposition', `${disposition}; ${fileName}`)
      .send(media.body);
  }
}
