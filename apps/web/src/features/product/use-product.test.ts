import { beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from '../../api/types';

/** Requests the SPA's API client sends (method, path and query), answered per path. */
const requests: string[] = [];
const answers: Record<string, unknown> = {
  '/v1/Product/ByManufacturerData': { productInstanceId: '200001~NB00004711', name: 'Thermostatventil' },
  '/v1/Product/Details': [],
  '/v1/Units': [],
};

let prefetchProduct: typeof import('./use-product').prefetchProduct;

beforeAll(async () => {
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url);
    requests.push(`${input.method} ${url.pathname}${url.search}`);
    return new Response(JSON.stringify(answers[url.pathname] ?? {}), {
      headers: { 'content-type': 'application/json' },
    });
  });
  ({ prefetchProduct } = await import('./use-product'));
});

describe('the product page started before it renders (prefetch)', () => {
  it('requests the product, the units and, after the product, the offers of the chosen one', async () => {
    const queryClient = new QueryClient();
    const profile = { currentBpNumber: '4711' } as UserProfile;
    prefetchProduct({
      queryClient,
      profile,
      searchParams: new URLSearchParams('id=4011407~00087109&articleNumber=200001~NB00004711'),
    });
    await vi.waitFor(() => expect(requests).toHaveLength(6));
    expect(requests[5]).toBe('GET /v1/Product/Details?productInstanceId=200001~NB00004711');
    expect(
      requests
        .slice(0, 5)
        .map((r) => r.split('?')[0])
        .sort(),
    ).toEqual([
      'GET /v1/ConfigurationValues/IntroductoryVideoManufacturer',
      'GET /v1/ConfigurationValues/IntroductoryVideoUrl',
      'GET /v1/ConfigurationValues/NoteOfUseAllowedSuppliers',
      'GET /v1/Product/ByManufacturerData',
      'GET /v1/Units',
    ]);
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(['bp', '4711', 'catalogue', 'details', '200001~NB00004711'])).toEqual([]),
    );
  });
});
