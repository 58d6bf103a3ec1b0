import type { FilterOptionsRequest, SearchRequest } from '@shk/contracts';
import { api } from './client';
import { expectStatus, unwrap } from './problem';
import type { components } from './schema';

/** Responses: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"); requests: contracts. */
type Schemas = components['schemas'];
type Favourite = Schemas['FavoriteProduct'];
type Product = Schemas['Product'];
type ProductDetails = Schemas['ProductDetails'];
type ProductTreeNode = Schemas['ProductTreeNode'];
type SearchFilterOption = Schemas['SearchFilterOption'];
type SearchResponse = Schemas['SearchResponse'];
type Suggestions = Schemas['Suggestions'];
type Unit = Schemas['Unit'];

/**
 * The catalogue calls of the SPA (buyer-side.md §7 'Products and search', favourites, units), typed with
 * the shared contract types. Features use them through react-query; keys are partner scoped (prices,
 * orderability and favourites depend on the current business partner).
 */
export const catalogueKeys = {
  /** Prefix of every partner-scoped catalogue read (search, product, details). */
  all: ['catalogue'] as const,
  tree: ['catalogue', 'tree'] as const,
  search: (request: SearchRequest) => ['catalogue', 'search', request] as const,
  filterOptions: (request: FilterOptionsRequest) => ['catalogue', 'filterOptions', request] as const,
  suggestions: (term: string) => ['catalogue', 'suggestions', term] as const,
  product: (manufacturerId: string, manufacturerPid: string, productInstanceId: string | null) =>
    ['catalogue', 'product', manufacturerId, manufacturerPid, productInstanceId] as const,
  details: (productInstanceId: string) => ['catalogue', 'details', productInstanceId] as const,
  favourites: ['favourites'] as const,
  units: ['units'] as const,
};

export type {
  Favourite,
  FilterOptionsRequest,
  Product,
  ProductDetails,
  ProductTreeNode,
  SearchFilterOption,
  SearchRequest,
  SearchResponse,
  Suggestions,
  Unit,
};
export type SearchHit = SearchResponse['hits'][number];
export type ProductOffer = ProductDetails['offers'][number];

export const catalogueApi = {
  productTree: async (): Promise<ProductTreeNode> => unwrap(await api.GET('/v1/ProductTree')),

  search: async (body: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> =>
    unwrap(await api.POST('/v1/Product/Search', { body, signal })),

  filterOptions: async (body: FilterOptionsRequest, signal?: AbortSignal): Promise<SearchFilterOption> =>
    unwrap(await api.POST('/v1/Product/FilterOptions', { body, signal })),

  suggestions: async (term: string, signal?: AbortSignal): Promise<Suggestions> =>
    unwrap(await api.GET('/v1/Product/Suggestions', { params: { query: { term } }, signal })),

  product: async (productInstanceId: string): Promise<Product> =>
    unwrap(await api.GET('/v1/Product', { params: { query: { productInstanceId } } })),

  productByManufacturerData: async (
    manufacturerId: string,
    manufacturerPid: string,
    productInstanceId?: string | null,
  ): Promise<Product> =>
    unwrap(
      await api.GET('/v1/Product/ByManufacturerData', {
        params: { query: { manufacturerId, manufacturerPid, ...(productInstanceId ? { productInstanceId } : {}) } },
      }),
    ),

  details: async (productInstanceId: string): Promise<ProductDetails> =>
    unwrap(await api.GET('/v1/Product/Details', { params: { query: { productInstanceId } } })),

  favourites: async (): Promise<Favourite[]> => unwrap(await api.GET('/v1/FavoriteProducts')),

  addFavourite: async (productInstanceId: string): Promise<void> =>
    expectStatus(await api.POST('/v1/FavoriteProducts', { params: { query: { productInstanceId } } }), 200, 201, 204),

  removeFavourite: async (productInstanceId: string): Promise<void> =>
    expectStatus(await api.DELETE('/v1/FavoriteProducts', { params: { query: { productInstanceId } } }), 200, 204),

  units: async (): Promise<Unit[]> => unwrap(await api.GET('/v1/Units')),
};
