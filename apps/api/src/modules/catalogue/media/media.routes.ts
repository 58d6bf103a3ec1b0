import fs from 'node:fs';
import { z } from 'zod';
import { catalogueProblemTitles as titles, Int4Id } from '@shk/contracts';
import type { App } from '../../../http/types.ts';
import { HttpProblem } from '../../../http/problem.ts';
import type { CatalogueContext } from '../catalogue.context.ts';
import { loadMediaProducts, renderMedia, storedMediaFile } from './media.ts';
import { topCategoryOf } from '../product-views.ts';

/**
 * Product pictures and documents. Public (no token): <img> tags cannot send one, and catalogue
 * media are marketing material; URLs carry the internal product number and the file name.
 * Generated media are rendered; files a supplier catalogue delivered in its zip, or named by URL and the media
 * fetcher stored, are sent from DATA_DIR; a URL not stored is a 404 (never a redirect: no open redirect).
 */
export function mediaRoutes(app: App, catalogue: CatalogueContext, dataDir: string) {
  app.get(
    '/v1/Media/Products/:productNo/:file',
    {
      config: { roles: 'public' },
      schema: {
        tags: ['Produkte'],
        summary: 'Produktbild (PNG) oder Dokument (PDF, STEP) eines Produkts',
        security: [],
        params: z.object({
          productNo: Int4Id,
          file: z.string().min(1).max(200),
        }),
      },
    },
    async (request, reply) => {
      const meta = await catalogue.meta.get();
      const products = await loadMediaProducts(catalogue.pool(), [request.params.productNo], (leaf) =>
        topCategoryOf(meta, leaf),
      );
      const product = products.get(request.params.productNo);
      const entry = product?.media.find((m) => m.file === request.params.file);
      if (!product || !entry) throw new HttpProblem(404, titles.mediaNotFound, { detail: request.params.file });
      const disposition = entry.type === '3C' ? 'attachment' : 'inline';
      const fileName = `filename="${entry.file.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(entry.file)}`;
      if (entry.stored) {
        const file = storedMediaFile(dataDir, entry.stored.supplier, entry.stored.sha256);
        if (!file) throw new HttpProblem(404, titles.mediaNotFound, { detail: request.params.file });
        const inline = entry.stored.contentType.startsWith('image/') || entry.stored.contentType === 'application/pdf';
        return reply
          .header('content-type', entry.stored.contentType)
          .header('content-length', entry.stored.size)
          .header('cache-control', 'public, max-age=86400')
          .header('etag', `"${entry.stored.sha256}"`)
          .header('content-disposition', `${inline ? 'inline' : 'attachment'}; ${fileName}`)
          .send(fs.createReadStream(file));
      }
      // A supplier's reference not stored (yet): a web address the media fetcher has not stored, or could not; a file
      // the zip lacked or that was refused. Only stored files are served: never a redirect to the supplier's address.
      if (entry.url !== undefined) throw new HttpProblem(404, titles.mediaNotFound, { detail: request.params.file });
      const media = renderMedia(product, entry);
      return reply
        .header('content-type', media.contentType)
        .header('cache-control', 'public, max-age=86400')
        .header('etag', `"${meta.version}-${product.id}-${media.body.length}"`)
        .header('content-disposition', `${disposition}; ${fileName}`)
        .send(media.body);
    },
  );
}
