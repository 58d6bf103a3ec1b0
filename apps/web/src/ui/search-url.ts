import { parseFilterList, type SearchFilter } from '@shk/contracts';

export { encodeFilters, searchUrl, sellerCatalogueUrl } from './search-link';

/**
 * The filter list of a `filters` query value: the contracts' `SearchFilter` entries, normalised (spec §5); an empty
 * list for missing or malformed values.
 */
export function decodeFilters(encoded: string | null | undefined): SearchFilter[] {
  if (!encoded) return [];
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return parseFilterList(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return [];
  }
}
