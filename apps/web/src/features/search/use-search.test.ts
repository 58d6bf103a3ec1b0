import { beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from '../../api/types';

/** Requests the SPA's API client sends (path and method), answered with an empty JSON body per path. */
const requests: string[] = [];
/** The bodies of the searches sent. */
const searchBodies: unknown[] = [];
const answers: Record<string, unknown> = {
  '/v1/Product/Search': { products: [], totalCount: 0, filters: [] },
  '/v1/Units': [],
  '/v1/ProductTree': { id: 'root', children: [] },
};

let prefetchSearch: typeof import('./use-search').prefetchSearch;

beforeAll(async () => {
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url).pathname;
    requests.push(`${input.method} ${path}`);
    if (path === '/v1/Product/Search') searchBodies.push(await input.clone().json());
    return new Response(JSON.stringify(answers[path] ?? {}), { headers: { 'content-type': 'application/json' } });
  });
  ({ prefetchSearch } = await import('./use-search'));
});

describe('the search page started before it renders (prefetch)', () => {
  it('requests the search and, beside it, the units, the product tree and the banner setting the page shows', async () => {
    const queryClient = new QueryClient();
    const profile = { currentBpNumber: '4711' } as UserProfile;
    prefetchSearch({ queryClient, profile, searchParams: new URLSearchParams('term=Thermostat') });
    await vi.waitFor(() => expect(requests).toHaveLength(4));
    expect(requests.sort()).toEqual([
      'GET /v1/ConfigurationValues/ManufacturerBannerSupplier',
      'GET /v1/ProductTree',
      'GET /v1/Units',
      'POST /v1/Product/Search',
    ]);
    // Under the keys the page's hooks read (units: global; tree: the partner's).
    await vi.waitFor(() => {
      expect(queryClient.getQueryData(['units'])).toEqual([]);
      expect(queryClient.getQueryData(['bp', '4711', 'catalogue', 'tree'])).toEqual(answers['/v1/ProductTree']);
    });
  });

  it('with filters in the address: loads their parser first and searches with them', async () => {
    const { encodeFilters, filterParserLoaded } = await import('../../ui/search-url');
    const { selectionFilter } = await import('@shk/contracts');
    searchBodies.length = 0;
    requests.length = 0;
    const filters = [selectionFilter('brandname', ['Calora'])];
    const queryClient = new QueryClient();
    const profile = { currentBpNumber: '4711' } as UserProfile;
    const searchParams = new URLSearchParams({ term: 'Ventil', filters: encodeFilters(filters) });
    prefetchSearch({ queryClient, profile, searchParams });
    expect(filterParserLoaded()).toBe(false);
    await vi.waitFor(() => expect(searchBodies).toHaveLength(1));
    expect(filterParserLoaded()).toBe(true);
    expect(searchBodies[0]).toMatchObject({ searchTerm: 'Ventil', filter: filters });
    // Each read once: the banner's setting is not read again when the search follows the parser.
    expect(requests.filter((r) => r.includes('ConfigurationValues'))).toHaveLength(1);
  });
});
