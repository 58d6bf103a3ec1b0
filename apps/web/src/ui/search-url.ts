import type { SearchFilter } from '@shk/contracts';

export { encodeFilters, searchUrl, sellerCatalogueUrl } from './search-link';

let parseFilterList: ((json: unknown) => SearchFilter[]) | undefined;
let parserLoad: Promise<void> | undefined;

/**
 * Loads the parser of `filters` values (the contracts' zod schema; zod is ~21 kB brotli and ~10 ms of evaluation),
 * which a search address without filters does not need. Once it has resolved, decodeFilters works synchronously;
 * the search page waits for it only when its address has filters. A failed download is tried again on the next call.
 */
export function loadFilterParser(): Promise<void> {
  parserLoad ??= import('./search-filter-parser').then(
    (module) => {
      parseFilterList = module.parseFilterList;
    },
    (error: unknown) => {
      parserLoad = undefined;
      throw error;
    },
  );
  return parserLoad;
}

/** Whether decodeFilters can read a `filters` value now (loadFilterParser has resolved). */
export const filterParserLoaded = (): boolean => parseFilterList !== undefined;

/**
 * The filter list of a `filters` query value: the contracts' `SearchFilter` entries, normalised (spec §5); an empty
 * list for missing or malformed values. A value needs the parser: await loadFilterParser() first.
 */
export function decodeFilters(encoded: string | null | undefined): SearchFilter[] {
  if (!encoded) return [];
  if (!parseFilterList) throw new Error('decodeFilters: the filter parser is not loaded (loadFilterParser)');
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return parseFilterList(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return [];
  }
}
