import { beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from './types';

/** Requests the SPA's API client sends; the cart list is empty until the default cart was requested. */
const requests: string[] = [];
let defaultCartCreated = false;
let prefetchCarts: typeof import('./carts').prefetchCarts;

beforeAll(async () => {
  // The API client reads the page's origin when its module loads.
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url).pathname;
    requests.push(`${input.method} ${path}`);
    if (path === '/v1/MultiCarts/Default') defaultCartCreated = true;
    const body = path === '/v1/MultiCarts' ? (defaultCartCreated ? [{ id: 1, name: 'Warenkorb' }] : []) : { id: 1 };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  ({ prefetchCarts } = await import('./carts'));
});

describe('the header’s cart list started with the profile (prefetchCarts)', () => {
  it('reads the list under the key useCarts reads, creating the default cart when there is none', async () => {
    const queryClient = new QueryClient();
    await prefetchCarts(queryClient, { currentBpNumber: '4711' } as UserProfile);
    expect(requests).toEqual(['GET /v1/MultiCarts', 'GET /v1/MultiCarts/Default', 'GET /v1/MultiCarts']);
    expect(queryClient.getQueryData(['bp', '4711', 'carts', 'list'])).toEqual([{ id: 1, name: 'Warenkorb' }]);
    // Fresh for the widget's first render (30 s, as useCarts): no second read.
    await prefetchCarts(queryClient, { currentBpNumber: '4711' } as UserProfile);
    expect(requests).toHaveLength(3);
  });
});
