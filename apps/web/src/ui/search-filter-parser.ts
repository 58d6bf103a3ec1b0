/**
 * The `filters` parser of search addresses: the contracts' zod schema of a filter. Loaded on demand by search-url.ts
 * (`loadFilterParser`), so a search page opened without filters does not download and evaluate zod.
 */
export { parseFilterList } from '@shk/contracts';
