/**
 * Parsing an untrusted filter list needs the zod schema; it lives apart from the zod-free builders in
 * `search-filters.ts`, so code that only builds filter URLs (the SPA's menu) does not load zod.
 */
import { SearchFilter } from './schemas/catalogue.ts';
import { normaliseFilterList } from './search-filters.ts';

/**
 * A filter list from untrusted JSON (a hand-edited URL): the entries the API's `SearchFilter` schema accepts, normalised;
 * anything else is left out.
 */
export function parseFilterList(json: unknown): SearchFilter[] {
  if (!Array.isArray(json)) return [];
  return normaliseFilterList(
    json.flatMap((entry) => {
      const parsed = SearchFilter.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    }),
  );
}
