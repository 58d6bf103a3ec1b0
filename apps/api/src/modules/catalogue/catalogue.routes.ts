import path from 'node:path';
import { z } from 'zod';
import {
  ByManufacturerDataQuery,
  catalogueProblemTitles as titles,
  FilterOptionsRequest,
  Product,
  ProductDetails,
  ProductInstanceQuery,
  ProductTreeNode,
  Role,
  SearchFilterOption,
  SearchRequest,
  SearchResponse,
  Suggestions,
  SuggestionsQuery,
  Unit,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { snapshotId, type ReadModelRoute } from '../../http/read-model-cache.ts';
import { HttpProblem } from '../../http/problem.ts';
import { createCatalogueContext, type CatalogueContext } from './catalogue.context.ts';
import { productByInstance, productByManufacturer, productDetails, splitCompositeId } from './product.service.ts';
import { productTree } from './tree.ts';
import { units } from './units.service.ts';
import { favouriteRoutes } from './favourites/favourites.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { ZeroHitLog } from '../reports/index.ts';
import { fileStorage } from '../storage/index.ts';
import type { HitStore } from './search/hit-store.ts';

/** Search, product pages and the tree: every role with a portal function (not None). */
export const CATALOGUE_ROLES = [
  Role.Buyer,
  Role.Seller,
  Role.Administrator,
  Role.Support,
  Role.PlatformOperator,
] as const;

declare module 'fastify' {
  interface FastifyInstance {
    /** The search hits' store of this process (search/hit-store.ts); its counters for tests and the bench. */
    searchHitStore: HitStore | undefined;
  }
}

/** Catalogue, search, favourites and media. */
export async function catalogueRoutes(app: App, deps: AppDeps) {
  const catalogue = createCatalogueContext(deps, {
    snapshotDir: path.join(deps.config.dataDir, 'search-index'),
    readModels: app.readModels,
    log: app.log,
  });
  app.decorate('searchHitStore', catalogue.hitStore);
  deps.lifecycle.provide('search index feed', { start: catalogue.start, stop: catalogue.close });
  // The app's close (after its requests, before the pool ends): the searches without hits still waiting are written.
  const zeroHits = new ZeroHitLog(catalogue.pool, app.log);
  app.addHook('onClose', () => zeroHits.flush());
  registerCatalogueRoutes(app, catalogue, zeroHits);
  favouriteRoutes(app, catalogue);
  mediaRoutes(app, catalogue, fileStorage(deps));
  // Warm the whole-catalogue facet counts (tree, empty search) once the server listens.
  app.addHook('onListen', () => {
    catalogue.search.catalogueCounts().catch((e) => app.log.warn({ err: e }, 'catalogue warm-up failed'));
  });
}

const notFound = (detail: string) => new HttpProblem(404, titles.productNotFound, { detail });

function checkInstanceId(id: string, field = 'query.productInstanceId') {
  if (!splitCompositeId(id)) {
    throw new HttpProblem(400, titles.invalidProductInstanceId, {
      detail: 'Erwartet: Lieferantennummer~Lieferantenartikelnummer',
      errors: [{ field, message: titles.invalidProductInstanceId }],
    });
  }
}

/** Turns a statement timeout into a 503 problem instead of a 500. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === '57014') throw new HttpProblem(503, titles.searchTimeout);
    throw error;
  }
}

/**
 * The product page's answers as the read-model cache keeps them: by the catalogue version (every catalogue write
 * raises it, followed by the meta cache through NOTIFY catalogue_state: the meta the answer is built with) and the
 * price strategy's stamp (none: a live strategy, nothing kept); products, offers, prices, the caller's relations, the
 * suppliers' settings and the favourites by their tables.
 */
function productReadModel(catalogue: CatalogueContext): ReadModelRoute {
  return {
    tables: [
      'products',
      'product_offers',
      'catalogue_offer_prices',
      'supplier_customers',
      'suppliers',
      'favorite_products',
    ],
    vary: async (request) => {
      const stamp = catalogue.prices.cacheStamp?.({ buyerBpNumber: callerOf(request).bpNumber }) ?? null;
      return stamp === null ? null : `${(await catalogue.meta.get()).version}\u0000${stamp}`;
    },
  };
}

function registerCatalogueRoutes(app: App, catalogue: CatalogueContext, zeroHits: ZeroHitLog) {
  const roles = [...CATALOGUE_ROLES];
  const tags = ['Produkte'];
  const productPage = productReadModel(catalogue);

  app.get(
    '/v1/Units',
    {
      config: { ids: 'allowed', roles: 'authenticated', readModel: { tables: ['units'] } },
      schema: {
        tags,
        summary: 'Mengeneinheiten (ein ^ markiert Hochstellung, z. B. m^2)',
        response: { 200: z.array(Unit) },
      },
    },
    async () => units(catalogue.pool()),
  );

  app.get(
    '/v1/ProductTree',
    {
      config: {
        ids: 'allowed',
        roles: 'authenticated',
        // Built from the whole-catalogue counts and the meta in memory: kept while they are the same objects.
        readModel: {
          tables: [],
          vary: async () => {
            const { meta, set } = await catalogue.search.catalogueCounts();
            return `${snapshotId(meta)}.${snapshotId(set)}`;
          },
        },
      },
      schema: {
        tags,
        summary: 'Produktbaum mit Produktanzahlen (Wurzel SHKMARKET)',
        response: { 200: ProductTreeNode },
      },
    },
    async (request) => {
      const ctx = await catalogue.callerContext(request);
      const { meta, set } = await catalogue.search.catalogueCounts();
      return productTree(meta, set, ctx.bpNumber);
    },
  );

  app.post(
    '/v1/Product/Search',
    {
      // Reads only (the zero-hit log is not a followed table): the next cached read need not wait for notifications.
      config: { ids: 'allowed', roles, changesReadModels: false },
      schema: {
        tags,
        summary: 'Produktsuche mit Filtern, Facetten und Sortierung',
        body: SearchRequest,
        response: { 200: SearchResponse },
      },
    },
    async (request) => {
      const ctx = await catalogue.callerContext(request);
      const result = await guarded(() => catalogue.search.search(ctx, request.body));
      zeroHits.record(result, ctx);
      return result;
    },
  );

  app.post(
    '/v1/Product/FilterOptions',
    {
      // Reads only (the zero-hit log is not a followed table): the next cached read need not wait for notifications.
      config: { ids: 'allowed', roles, changesReadModels: false },
      schema: {
        tags,
        summary: 'Alle Werte eines Filters (Liste „mehr anzeigen“)',
        body: FilterOptionsRequest,
        response: { 200: SearchFilterOption },
      },
    },
    async (request) => {
      const ctx = await catalogue.callerContext(request);
      return guarded(() => catalogue.search.filterOptions(ctx, request.body));
    },
  );

  app.get(
    '/v1/Product/Suggestions',
    {
      config: { ids: 'allowed', roles },
      schema: {
        tags,
        summary: 'Suchvorschläge (Begriffe, Marken, Serien, Kategorien und erste Produkte)',
        querystring: SuggestionsQuery,
        response: { 200: Suggestions },
      },
    },
    async (request) => {
      const ctx = await catalogue.callerContext(request);
      return guarded(() => catalogue.search.suggestions(ctx, request.query.term));
    },
  );

  app.get(
    '/v1/Product',
    {
      config: { ids: 'allowed', roles },
      schema: {
        tags,
        summary: 'Produkt einer Produktinstanz (Lieferantenangebot)',
        querystring: ProductInstanceQuery,
        response: { 200: Product },
      },
    },
    async (request) => {
      checkInstanceId(request.query.productInstanceId);
      const product = await productByInstance(
        catalogue.pool(),
        await catalogue.callerContext(request),
        request.query.productInstanceId,
      );
      if (!product) throw notFound(`Produktinstanz ${request.query.productInstanceId}`);
      return product;
    },
  );

  app.get(
    '/v1/Product/Details',
    {
      config: { ids: 'allowed', roles, readModel: productPage },
      schema: {
        tags,
        summary: 'Angebote aller Lieferanten zum Produkt einer Produktinstanz',
        querystring: ProductInstanceQuery,
        response: { 200: ProductDetails },
      },
    },
    async (request) => {
      checkInstanceId(request.query.productInstanceId);
      const details = await productDetails(
        catalogue.pool(),
        await catalogue.callerContext(request),
        request.query.productInstanceId,
      );
      if (!details) throw notFound(`Produktinstanz ${request.query.productInstanceId}`);
      return details;
    },
  );

  app.get(
    '/v1/Product/ByManufacturerData',
    {
      config: { ids: 'allowed', roles, readModel: productPage },
      schema: {
        tags,
        summary: 'Produkt über Hersteller-ID und Werksartikelnummer (optional gewünschte Produktinstanz)',
        querystring: ByManufacturerDataQuery,
        response: { 200: Product },
      },
    },
    async (request) => {
      const { manufacturerId, manufacturerPid, productInstanceId } = request.query;
      const product = await productByManufacturer(
        catalogue.pool(),
        await catalogue.callerContext(request),
        manufacturerId,
        manufacturerPid,
        productInstanceId || undefined,
      );
      if (!product) throw notFound(`Artikelnummer ${manufacturerPid} nicht gefunden.`);
      return product;
    },
  );
}
