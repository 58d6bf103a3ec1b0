/**
 * A change-feed row (search_changes, migration 0150) of this product id stands for every product: a publish that
 * replaces most of the search rows at once (an import's first large catalogue) writes it instead of a row per
 * product, and each process following the feed builds its index anew (index-holder.ts).
 */
export const FEED_REBUILD = 0;
