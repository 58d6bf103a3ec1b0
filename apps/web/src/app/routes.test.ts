import { beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../api/types';

/** Requests the SPA's API client sends (method and path), answered with an empty JSON body. */
const requests: string[] = [];
let routes: typeof import('./routes');

/** Answers by path for the cart page's reads (anything else: an empty JSON object). */
const answers = new Map<string, unknown>();
const session = new Map<string, string>();
/** Milliseconds an answer takes, by path. */
const delays = new Map<string, number>();

beforeAll(async () => {
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => session.get(key) ?? null,
    setItem: (key: string, value: string) => session.set(key, value),
    removeItem: (key: string) => session.delete(key),
  });
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url).pathname;
    requests.push(`${input.method} ${path}`);
    await new Promise((resolve) => setTimeout(resolve, delays.get(path) ?? 0));
    return new Response(JSON.stringify(answers.get(path) ?? {}), { headers: { 'content-type': 'application/json' } });
  });
  routes = await import('./routes');
});

const buyer = { role: Role.Buyer, currentBpNumber: '4711' } as UserProfile;

describe('the page data started before the page renders (prefetchPageData)', () => {
  it('starts the product read as soon as the profile is there, without waiting for the page’s code', async () => {
    const { catalogueKeys } = await import('../api/catalogue');
    const { queryKeys } = await import('../api/query-keys');
    const queryClient = new QueryClient();
    void routes.prefetchPageData(
      { pathname: '/produkt', search: '?id=4011407~00087109&articleNumber=200001~NB00004711' },
      queryClient,
      Promise.resolve(buyer),
    );
    // A few microtasks: enough for the resolved profile, far too few for a dynamic import of the page's module.
    for (let i = 0; i < 3; i++) await Promise.resolve();
    const key = queryKeys.partnerScoped('4711', ...catalogueKeys.product('4011407', '00087109', '200001~NB00004711'));
    expect(queryClient.getQueryState(key)?.fetchStatus).toBe('fetching');
  });

  it('requests nothing for a role that may not open the page, nor for a route without prefetch', async () => {
    requests.length = 0;
    const withoutRole = { ...buyer, role: Role.None } as UserProfile;
    await routes.prefetchPageData(
      { pathname: '/suche', search: '?term=x' },
      new QueryClient(),
      Promise.resolve(withoutRole),
    );
    await routes.prefetchPageData({ pathname: '/profil', search: '' }, new QueryClient(), Promise.resolve(buyer));
    expect(requests).toEqual([]);
  });

  it('the search, product and cart pages have their prefetch in the route table', () => {
    const prefetching = routes.appRoutes.filter((route) => route.prefetch).map((route) => route.path);
    expect(prefetching).toEqual(['/suche', '/produkt', '/warenkorb/:cartId?']);
  });

  it('the home page reads nothing with the profile: its first screen needs no data, the supplier blocks below it read theirs when they render', async () => {
    requests.length = 0;
    await routes.prefetchPageData({ pathname: '/', search: '' }, new QueryClient(), Promise.resolve(buyer));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });
});

describe('the cart page’s reads (its prefetch)', () => {
  const cart = (id: number, items: unknown[]) => ({ id, isDefault: true, items, supplierGroups: [] });
  const cartPage = async (path: string) => {
    requests.length = 0;
    const queryClient = new QueryClient();
    await routes.prefetchPageData({ pathname: path, search: '' }, queryClient, Promise.resolve(buyer));
    return queryClient;
  };

  it('answers the list only with the shown cart in the cache (the page picks its cart from the list)', async () => {
    const { cartKeys } = await import('../api/carts');
    const { queryKeys } = await import('../api/query-keys');
    session.clear();
    answers.set('/v1/MultiCarts', [{ id: 7, isDefault: true }]);
    answers.set('/v1/MultiCarts/Default', cart(7, []));
    delays.set('/v1/MultiCarts/Default', 200);
    const queryClient = await cartPage('/warenkorb');
    const listKey = queryKeys.partnerScoped('4711', ...cartKeys.list);
    await vi.waitFor(() => expect(queryClient.getQueryData(listKey)).toBeDefined(), { interval: 5 });
    expect(queryClient.getQueryData(queryKeys.partnerScoped('4711', ...cartKeys.detail(7)))).toMatchObject({ id: 7 });
    delays.clear();
  });

  it('reads the list and the default cart side by side, under the key of its id; nothing more for an empty cart', async () => {
    const { cartKeys } = await import('../api/carts');
    const { queryKeys } = await import('../api/query-keys');
    session.clear();
    answers.set('/v1/MultiCarts', [{ id: 7, isDefault: true }]);
    answers.set('/v1/MultiCarts/Default', cart(7, []));
    const queryClient = await cartPage('/warenkorb');
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(queryKeys.partnerScoped('4711', ...cartKeys.detail(7)))).toMatchObject({ id: 7 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests.sort()).toEqual(['GET /v1/MultiCarts', 'GET /v1/MultiCarts/Default']);
  });

  it('reads the remembered or the named cart by its id; with lines also the addresses and units', async () => {
    session.set('shk.currentCartId', '9');
    answers.set('/v1/MultiCarts/9', cart(9, [{ id: 1 }]));
    await cartPage('/warenkorb');
    await vi.waitFor(() =>
      expect(requests.sort()).toEqual([
        'GET /v1/DeliveryAddresses',
        'GET /v1/MultiCarts',
        'GET /v1/MultiCarts/9',
        'GET /v1/Units',
      ]),
    );
    answers.set('/v1/MultiCarts/12', cart(12, []));
    await cartPage('/warenkorb/12');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests.sort()).toEqual(['GET /v1/MultiCarts', 'GET /v1/MultiCarts/12']);
  });
});

describe('the page code requested before the session is known (preloadPageOf)', () => {
  it('loads a protected page’s code only for a visitor who may be signed in; a public page’s for everyone', () => {
    const loads = (path: string) => {
      const route = routes.appRoutes.find((r) => r.path === path)!;
      return vi.spyOn(route.page, 'preload').mockResolvedValue({ default: () => null });
    };
    const cart = loads('/warenkorb/:cartId?');
    const imprint = loads('/impressum');
    routes.preloadPageOf('/warenkorb', { publicOnly: true });
    routes.preloadPageOf('/impressum', { publicOnly: true });
    expect(cart).not.toHaveBeenCalled();
    expect(imprint).toHaveBeenCalledTimes(1);
    routes.preloadPageOf('/warenkorb');
    expect(cart).toHaveBeenCalledTimes(1);
  });
});
