/**
 * Public face of the catalogue module: The product catalogue: search, product pages, prices, media, favourites and units; and the search building
 * blocks the catalogue import writes with.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { catalogueRoutes } from './catalogue.routes.ts';
export type { CatalogueOffer, CatalogueProduct, MediaEntry } from './catalogue.types.ts';
export type { OfferRow, ProductRow } from './catalogue.repo.ts';
export {
  listPriceStrategy,
  priceStrategyOf,
  priceTotal,
  type PriceContext,
  type PricedOffer,
  type PriceStrategy,
  type ResolvedPrice,
} from './pricing/price-strategy.ts';
export { withUnitRule } from './offers.ts';
export { mediaUrl, storedMediaKey, storedMediaPath } from './media/media.ts';
export { todayPriceColumns, todayPriceJoin } from './today-price.ts';
export { fold, normaliseCode } from './search/fold.ts';
export { PART_WORDS } from './search/decompound.ts';
export { FEED_REBUILD } from './search/index/feed.ts';
export { searchDocumentOf } from './search/indexer.ts';
export { TERM_KIND, TermTally, type TermDelta } from './search/search-terms.ts';
