import { z } from 'zod';
import { Favourite, ProductInstanceQuery, Role } from '@shk/contracts';
import type { App } from '../../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../../http/auth.ts';
import type { CatalogueContext } from '../catalogue.context.ts';
import { FavouritesService } from './favourites.service.ts';

export function favouriteRoutes(app: App, catalogue: CatalogueContext) {
  const tags = ['Favoriten'];
  const favourites = new FavouritesService(catalogue);

  app.get(
    '/v1/FavoriteProducts',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: {
        tags,
        summary: 'Favoriten des Benutzers beim aktuellen Geschäftspartner (ohne productDetails: nicht mehr verfügbar)',
        response: { 200: z.array(Favourite) },
      },
    },
    async (request) => favourites.list(await catalogue.callerContext(request), currentPartnerOf(request)),
  );

  app.post(
    '/v1/FavoriteProducts',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: {
        tags,
        summary: 'Produktinstanz als Favorit merken (idempotent: 201 neu, 200 schon vorhanden)',
        querystring: ProductInstanceQuery,
        response: { 200: Favourite, 201: Favourite },
      },
    },
    async (request, reply) => {
      const ctx = await catalogue.callerContext(request);
      const { created, favourite } = await favourites.add(
        ctx,
        currentPartnerOf(request),
        request.query.productInstanceId,
      );
      return reply.status(created ? 201 : 200).send(favourite);
    },
  );

  app.delete(
    '/v1/FavoriteProducts',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: { tags, summary: 'Favorit entfernen', querystring: ProductInstanceQuery, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await favourites.remove(callerOf(request).userId, currentPartnerOf(request), request.query.productInstanceId);
      return reply.status(204).send(null);
    },
  );
}
