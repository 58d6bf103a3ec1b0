import type { QueryClient } from '@tanstack/react-query';
import { featureSettingDefaults, type FeatureSettingKey } from '@shk/contracts';
import { api } from './client';
import { cartMemory, useRememberedCartId } from './cart-memory';
import { pickCurrentCart } from './current-cart';
import { expectStatus, unwrap } from './problem';
import { useConfigurationValue } from './configuration';
import { prefetchPartnerQuery, usePartnerQuery, useUserProfile } from './session';
import { queryKeys } from './query-keys';
import type { UserProfile } from './types';
import type { components } from './schema';

/**
 * The cart, address, project and configuration calls of the SPA (buyer-side.md §7 'Cart items',
 * 'Multi-carts', 'Delivery addresses, projects'). Shared by the carts feature, the header cart widget and
 * the add-to-cart button; reads are cached per current business partner.
 */
type Schemas = components['schemas'];
export type MultiCart = Schemas['MultiCart'];
export type CartItem = Schemas['CartItem'];
export type CartOverview = Schemas['CartOverview'];
export type SupplierGroup = MultiCart['supplierGroups'][number];
export type DeliveryAddress = Schemas['DeliveryAddress'];
export type DeliveryAddressInput = Omit<DeliveryAddress, 'id' | 'isReadOnly'>;
export type Project = Schemas['Project'];
export type Attachment = Schemas['Attachment'];
export { pickCurrentCart };

export interface CartItemProperties {
  quantity: number;
  projectId: number | null;
  deliveryDate: string | null;
  deliveryAddressId: number | null;
  comment: string | null;
}

/** Partner-scoped key parts (the partner number is put in front by usePartnerQuery). */
export const cartKeys = {
  all: ['carts'] as const,
  list: ['carts', 'list'] as const,
  detail: (cartId: number) => ['carts', 'detail', cartId] as const,
  addresses: ['deliveryAddresses'] as const,
  projects: ['projects'] as const,
};

/** Everything that shows cart contents: the list (badge, flyout, my carts) and every cart. */
export function invalidateCarts(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === 'bp' && query.queryKey[2] === 'carts',
  });
}

export const cartsApi = {
  list: async (): Promise<CartOverview[]> => unwrap(await api.GET('/v1/MultiCarts')),
  defaultCart: async (): Promise<MultiCart> => unwrap(await api.GET('/v1/MultiCarts/Default')),
  get: async (id: number): Promise<MultiCart> =>
    unwrap(await api.GET('/v1/MultiCarts/{id}', { params: { path: { id } } })),
  create: async (name: string): Promise<MultiCart> => unwrap(await api.POST('/v1/MultiCarts', { body: { name } })),
  rename: async (id: number, name: string): Promise<MultiCart> =>
    unwrap(await api.PUT('/v1/MultiCarts/{id}/name', { params: { path: { id } }, body: { name } })),
  updateDetails: async (
    id: number,
    body: { projectId: number | null; deliveryAddressId: number | null; deliveryDate: string | null },
  ): Promise<MultiCart> => unwrap(await api.PUT('/v1/MultiCarts/{id}', { params: { path: { id } }, body })),
  /** Emptying replaces all items with an empty list (204); the server then resets the cart's details. */
  empty: async (id: number) =>
    expectStatus(await api.PUT('/v1/MultiCarts/{id}/items', { params: { path: { id } }, body: { items: [] } }), 204),
  remove: async (id: number) =>
    expectStatus(await api.DELETE('/v1/MultiCarts/{id}', { params: { path: { id } } }), 204),
  checkout: async (
    id: number,
    body: { orderReference?: string; orderNote?: string } = {},
  ): Promise<{ customerOrderNumber: string }> => {
    const result = await api.POST('/v1/MultiCarts/{id}/checkout', { params: { path: { id } }, body });
    expectStatus(result, 200);
    return result.data!;
  },

  addItem: async (body: {
    productInstanceId: string;
    quantity: number;
    cartId?: number | null;
    articleNumber?: string | null;
    supplierBusinessPartnerNo?: string | null;
    comment?: string | null;
  }) => {
    const result = await api.POST('/v1/CartItems', { body });
    expectStatus(result, 201);
    return result.data!;
  },
  updateItem: async (id: number, body: CartItemProperties) =>
    unwrap(await api.PUT('/v1/CartItems/{id}/properties', { params: { path: { id } }, body: { id, ...body } })),
  removeItem: async (id: number) =>
    expectStatus(await api.DELETE('/v1/CartItems/{id}', { params: { path: { id } } }), 204),
  /** Removes several items of one cart in one step (204 expected). */
  removeItems: async (cartId: number, ids: number[]) =>
    expectStatus(await api.DELETE('/v1/CartItems', { params: { query: { cartId, id: ids } } }), 204),
  uploadAttachments: async (cartItemId: number, files: File[]): Promise<Attachment[]> => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return unwrap(
      await api.POST('/v1/CartItems/{cartItemId}/attachments', {
        params: { path: { cartItemId } },
        body: form as never,
        bodySerializer: (body: unknown) => body as FormData,
      }),
    ) as Attachment[];
  },
  removeAttachment: async (cartItemId: number, id: number) =>
    expectStatus(
      await api.DELETE('/v1/CartItems/{cartItemId}/attachments/{id}', { params: { path: { cartItemId, id } } }),
      204,
    ),

  addresses: async (): Promise<DeliveryAddress[]> => unwrap(await api.GET('/v1/DeliveryAddresses')),
  createAddress: async (body: DeliveryAddressInput): Promise<DeliveryAddress> =>
    unwrap(await api.POST('/v1/DeliveryAddresses', { body: body as never })),
  updateAddress: async (id: number, body: DeliveryAddressInput): Promise<DeliveryAddress> =>
    unwrap(await api.PUT('/v1/DeliveryAddresses/{id}', { params: { path: { id } }, body: body as never })),
  removeAddress: async (id: number) =>
    expectStatus(await api.DELETE('/v1/DeliveryAddresses/{id}', { params: { path: { id } } }), 204),

  projects: async (): Promise<Project[]> => unwrap(await api.GET('/v1/Projects')),
  createProject: async (body: { code: string; description: string | null }): Promise<Project> =>
    unwrap(await api.POST('/v1/Projects', { body })),
};

/** The partner's cart list; 'Warenkorb' is created by the server when there is none yet. */
async function listCarts(): Promise<CartOverview[]> {
  const carts = await cartsApi.list();
  if (carts.length > 0) return carts;
  await cartsApi.defaultCart();
  return cartsApi.list();
}
const CART_LIST_STALE_MS = 30_000;

/** The partner's carts (overview rows); 'Warenkorb' is created by the server when there is none yet. */
export function useCarts(options: { enabled?: boolean } = {}) {
  return usePartnerQuery(cartKeys.list, listCarts, { enabled: options.enabled ?? true, staleTime: CART_LIST_STALE_MS });
}

/**
 * The buyer's cart list for the header's cart widget, started with the profile (main.tsx, `preloadHeaderOf`) instead
 * of after the widget's first render: on a slow network that read came after the page's code and was the last request
 * before the page's content (Lighthouse's LCP). Same key and stale time as useCarts.
 */
export function prefetchCarts(queryClient: QueryClient, profile: UserProfile): Promise<void> {
  return prefetchPartnerQuery(queryClient, profile, cartKeys.list, listCarts, CART_LIST_STALE_MS);
}

const CART_STALE_MS = 10_000;
const ADDRESSES_STALE_MS = 5 * 60_000;

export function useCart(cartId: number | null) {
  return usePartnerQuery(cartKeys.detail(cartId ?? 0), () => cartsApi.get(cartId!), {
    enabled: cartId !== null,
    staleTime: CART_STALE_MS,
  });
}

/**
 * The cart page's reads, started with the profile (the route table's `prefetch`) side by side instead of one after
 * the other from the page (profile → list → cart → addresses took four round trips before an empty cart showed):
 * the list and the cart the page shows — the one the address names, else the remembered one, else the default cart
 * (GET /v1/MultiCarts/Default, under the key of its id), as useCurrentCart picks it. In an IDS session the session
 * decides which cart it sees: the page reads it after the list. Resolves with the cart read (undefined: none, or it
 * failed; the page reads it again and reports).
 */
export function prefetchCartPage(
  queryClient: QueryClient,
  profile: UserProfile,
  requestedId: number | null,
): Promise<MultiCart | undefined> {
  const shown = readShownCart(queryClient, profile, requestedId);
  // The list's answer waits for the shown cart's: the page picks its cart from the list and must find that cart in the
  // cache then (answered first, the list made the page read the cart a second time).
  void prefetchPartnerQuery(
    queryClient,
    profile,
    cartKeys.list,
    async () => {
      const list = await listCarts();
      await shown;
      return list;
    },
    CART_LIST_STALE_MS,
  );
  return shown;
}

async function readShownCart(
  queryClient: QueryClient,
  profile: UserProfile,
  requestedId: number | null,
): Promise<MultiCart | undefined> {
  if (profile.idsContextId && requestedId === null) return undefined;
  const cartKey = (id: number) => queryKeys.partnerScoped(profile.currentBpNumber, ...cartKeys.detail(id));
  const id = requestedId ?? (Number(cartMemory.get()) || null);
  try {
    if (id !== null)
      return await queryClient.fetchQuery({
        queryKey: cartKey(id),
        queryFn: () => cartsApi.get(id),
        staleTime: CART_STALE_MS,
      });
    const cart = await cartsApi.defaultCart();
    queryClient.setQueryData(cartKey(cart.id), cart);
    return cart;
  } catch {
    return undefined;
  }
}

/** What a filled cart's lines show beside the cart: the delivery addresses (the units: prefetchCatalogueBasics). */
export function prefetchCartLineData(queryClient: QueryClient, profile: UserProfile): void {
  void prefetchPartnerQuery(queryClient, profile, cartKeys.addresses, cartsApi.addresses, ADDRESSES_STALE_MS);
}

/** The buyer's current cart from the overview list (null while loading or for non-buyers). */
export function useCurrentCart(options: { enabled?: boolean } = {}) {
  const profile = useUserProfile();
  const carts = useCarts(options);
  const remembered = useRememberedCartId();
  const inIdsContext = Boolean(profile.data?.idsContextId);
  const current = carts.data ? pickCurrentCart(carts.data, inIdsContext, remembered) : null;
  return { carts, current, inIdsContext };
}

export function useDeliveryAddresses() {
  return usePartnerQuery(cartKeys.addresses, cartsApi.addresses, { staleTime: ADDRESSES_STALE_MS });
}

export function useProjects() {
  return usePartnerQuery(cartKeys.projects, cartsApi.projects, { staleTime: 5 * 60_000 });
}

/** A numeric feature setting (e.g. MaxCartCount) with the spec's default while it loads or when it is missing. */
export function useNumberSetting(key: FeatureSettingKey): number {
  const value = useConfigurationValue(key);
  const parsed = Number(value.data?.value);
  if (value.data?.value && Number.isFinite(parsed)) return parsed;
  return Number(featureSettingDefaults.find((s) => s.key === key)?.value ?? 0);
}
