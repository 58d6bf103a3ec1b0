import { z } from 'zod';
import { catalogueProblemTitles as titles, Favourite, ProductInstanceQuery, Role, type Product } from '@shk/contracts';
import type { App } from '../../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../../http/auth.ts';
import { HttpProblem } from '../../../http/problem.ts';
import type { CatalogueContext } from '../catalogue.context.ts';
import { productByInstance } from '../product.service.ts';
import { deleteFavourite, listFavourites, saveFavourite, type FavouriteRow } from './favourites.repo.ts';

const toFavourite = (row: FavouriteRow, product: Product | null): Favourite => ({
  productInstanceId: row.product_instance_id,
  brandName: row.brand_name,
  articleNumber: row.article_number,
  gtin: row.gtin,
  articleCatalogNumber: row.article_catalog_number,
  imageUrl: row.image_url,
  articleShortDescription: row.article_short_description,
  ...(product ? { productDetails: product } : {}),
});

/** Favourites: buyers only, per user and current business partner. */
export function favouriteRoutes(app: App, catalogue: CatalogueContext) {
  const tags = ['Favoriten'];

  app.get('/v1/FavoriteProducts', {
    config: { roles: [Role.Buyer] },
    schema: { tags, summary: 'Favoriten des Benutzers beim aktuellen Geschäftspartner (ohne productDetails: nicht mehr verfügbar)', response: { 200: z.array(Favourite) } },
  }, async (request) => {
    const ctx = await catalogue.callerContext(request);
    const rows = await listFavourites(catalogue.pool(), ctx.userId, currentPartnerOf(request));
    const products = await Promise.all(rows.map((r) => productByInstance(catalogue.pool(), ctx, r.product_instance_id)));
    return rows.map((r, i) => toFavourite(r, products[i]));
  });

  app.post('/v1/FavoriteProducts', {
    config: { roles: [Role.Buyer] },
    schema: { tags, summary: 'Produktinstanz als Favorit merken (idempotent: 201 neu, 200 schon vorhanden)', querystring: ProductInstanceQuery, response: { 200: Favourite, 201: Favourite } },
  }, async (request, reply) => {
    const bpNumber = currentPartnerOf(request);
    const ctx = await catalogue.callerContext(request);
    const product = await productByInstance(catalogue.pool(), ctx, request.query.productInstanceId);
    if (!product) throw new HttpProblem(404, titles.productNotFound, { detail: `Produktinstanz ${request.query.productInstanceId}` });
    const row: FavouriteRow = {
      product_instance_id: product.productInstanceId, brand_name: product.brandName, article_number: product.supplierPid, gtin: product.gtin,
      article_catalog_number: product.additionalPackage.articleNumberCatalogue, image_url: product.picturesPackage[0]?.url ?? null,
      article_short_description: product.productName,
    };
    const created = await saveFavourite(catalogue.pool(), callerOf(request).userId, bpNumber, row);
    return reply.status(created ? 201 : 200).send(toFavourite(row, { ...product, isFavorite: true }));
  });

  app.delete('/v1/FavoriteProducts', {
    config: { roles: [Role.Buyer] },
    schema: { tags, summary: 'Favorit entfernen', querystring: ProductInstanceQuery, response: { 204: z.null() } },
  }, async (request, reply) => {
    const removed = await deleteFavourite(catalogue.pool(), callerOf(request).userId, currentPartnerOf(request), request.query.productInstanceId);
    if (!removed) throw new HttpProblem(404, titles.favouriteNotFound, { detail: `Produktinstanz ${request.query.productInstanceId}` });
    return reply.status(204).send(null);
  });
}
