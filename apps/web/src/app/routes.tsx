import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router';
import { messages, Role } from '@shk/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from '../api/types';
import type { PagePrefetch } from '../api/page-prefetch';
import { prefetchCartLineData, prefetchCartPage } from '../api/carts';
import { prefetchCatalogueBasics } from '../api/catalogue-queries';
import { loadCartLines } from '../features/carts/cart-lines';
import { prefetchProduct } from '../features/product/use-product';
import { prefetchSearch } from '../features/search/use-search';
import { mayOpen, type RouteAccess, type RouteKey } from './access';

interface PageModule {
  default: ComponentType;
}

export interface AppRoute {
  path: string;
  access: RouteAccess;
  page: LazyExoticComponent<ComponentType> & { preload: () => Promise<PageModule> };
  /**
   * The page's first data requests, started as soon as the profile is known (`prefetchPageData`). Part of this table
   * (the entry chunk), not of the page's chunk: the requests no longer wait for the page's code and the shared
   * `common` chunk (~85 kB, the longest download before the first content on a slow network).
   */
  prefetch?: (context: PagePrefetch) => void;
  /** Error toast for a role that may not open the route, shown with the redirect. */
  deniedMessages?: Partial<Record<Role, string>>;
}

/**
 * A page module with a default export, loaded when the route is first opened (with the styles of the Mantine
 * components its chunks use: `mantine-css-per-component.ts`).
 */
const page = (load: () => Promise<PageModule>) => {
  let loading: Promise<PageModule> | undefined;
  const loadOnce = () => (loading ??= load());
  return Object.assign(lazy(loadOnce), { preload: loadOnce });
};

/**
 * Every route of the SPA: path → access (a key of the role table in access.ts) → page.
 * Adding a page is one line here.
 */
export const appRoutes: readonly AppRoute[] = [
  {
    path: '/',
    access: 'home',
    page: page(() => import('./HomeRoute')),
    // No prefetch: the first screen (search, slideshow) needs no page data; a buyer's supplier blocks below it are
    // read when they render after the first paint (HomeRoute).
  },
  {
    path: '/suche',
    access: 'search',
    page: page(() => import('../features/search/SearchPage')),
    prefetch: prefetchSearch,
  },
  { path: '/aktion', access: 'search', page: page(() => import('../features/search/ActionRedirect')) },
  {
    path: '/produkt',
    access: 'product',
    page: page(() => import('../features/product/ProductPage')),
    prefetch: prefetchProduct,
  },
  {
    path: '/warenkorb/:cartId?',
    access: 'cart',
    page: page(() => import('../features/carts/CartPage')),
    prefetch: prefetchCart,
  },
  { path: '/my-carts', access: 'myCarts', page: page(() => import('../features/carts/MyCartsPage')) },
  {
    path: '/schnellerfassung',
    access: 'cart',
    page: page(() => import('../features/quick-order/QuickOrderPage')),
  },
  {
    path: '/admin/katalogimport',
    access: 'catalogueImport',
    page: page(() => import('../features/catalogue-import/CatalogueImportPage')),
  },
  { path: '/meine-favoriten', access: 'favourites', page: page(() => import('../features/favourites/FavouritesPage')) },
  { path: '/bestellungen', access: 'orders', page: page(() => import('./OrdersRoute')) },
  {
    path: '/bestellungen/bestellung',
    access: 'orders',
    page: page(() => import('../features/orders/OrderDetailPage')),
  },
  {
    path: '/meine-lieferanten',
    access: 'mySuppliers',
    page: page(() => import('../features/suppliers/MySuppliersPage')),
  },
  { path: '/profil', access: 'profile', page: page(() => import('../features/profile/ProfilePage')) },
  { path: '/ids-warenkorb', access: 'preCart', page: page(() => import('../features/ids/IdsPreCartPage')) },
  {
    path: '/add-to-cart',
    access: 'addToCart',
    page: page(() => import('../features/carts/AddToCartRoute')),
    // Spec §6: a seller calling add-to-cart is told so (then redirected like any disallowed route).
    deniedMessages: { [Role.Seller]: messages.sellerAddToCart },
  },
  { path: '/meine-kunden', access: 'myCustomers', page: page(() => import('../features/customers/MyCustomersPage')) },
  {
    path: '/lieferantenbestellungen',
    access: 'supplierOrders',
    page: page(() => import('../features/supplier-orders/SupplierOrdersPage')),
  },
  {
    path: '/geschaeftspartner',
    access: 'businessPartner',
    page: page(() => import('../features/business-partners/BusinessPartnersPage')),
  },
  { path: '/dashboard', access: 'dashboard', page: page(() => import('../features/dashboard/DashboardPage')) },
  { path: '/berichte', access: 'reports', page: page(() => import('../features/reports/ReportsPage')) },
  { path: '/admin', access: 'admin', page: page(() => import('../features/admin/SuppliersPage')) },
  {
    path: '/parameter',
    access: 'customParameter',
    page: page(() => import('../features/parameters/ParametersPage')),
  },
  {
    path: '/parameter/:key',
    access: 'customParameter',
    page: page(() => import('../features/parameters/ParameterDetailPage')),
  },
  { path: '/version', access: 'signedIn', page: page(() => import('../features/version/VersionPage')) },
  { path: '/impressum', access: 'public', page: page(() => import('../features/legal/ImprintPage')) },
  { path: '/datenschutz', access: 'public', page: page(() => import('../features/legal/PrivacyPage')) },
  { path: '/agb', access: 'public', page: page(() => import('../features/legal/TermsPage')) },
  {
    path: '/cookie-declaration',
    access: 'public',
    page: page(() => import('../features/legal/CookieDeclarationPage')),
  },
  { path: '/ids', access: 'public', page: page(() => import('../features/ids/IdsLandingPage')) },
  { path: '/unauthorized', access: 'public', page: page(() => import('../features/errors/UnauthorizedPage')) },
  { path: '/ids-bad-request', access: 'public', page: page(() => import('../features/errors/IdsBadRequestPage')) },
];

/**
 * /warenkorb: the list and the cart shown at once; once the cart has lines, their code (CartLines: date picker,
 * selects, dropzone, order summary) and the data they show beside the cart. An empty cart loads neither.
 */
function prefetchCart({ queryClient, profile, params }: PagePrefetch): void {
  const cartId = params?.cartId;
  const requested = cartId && /^\d+$/.test(cartId) ? Number(cartId) : null;
  void prefetchCartPage(queryClient, profile, requested).then((cart) => {
    if (!cart?.items.length) return;
    void loadCartLines().catch(() => undefined);
    prefetchCartLineData(queryClient, profile);
    prefetchCatalogueBasics(queryClient, profile, { tree: false });
  });
}

/**
 * Starts loading the page module of the address the browser opened, so its download overlaps the start-up
 * round trips (client configuration, session) instead of following them. Loading a page the user may not open
 * is harmless: the route guard still decides what is shown. For a visitor who cannot be signed in (`publicOnly`)
 * only a public page is loaded: every other page shows 'Willkommen' (part of the entry), and its code (for the cart
 * page with the shared chunks, ~100 kB) would compete with the first paint for the network.
 */
export function preloadPageOf(pathname: string, { publicOnly = false }: { publicOnly?: boolean } = {}): void {
  const route = routeOf(pathname);
  if (publicOnly && route?.access !== 'public') return;
  void route?.page.preload().catch(() => {
    // A failed download is retried (and reported) by the route itself when it renders.
  });
}

const routeOf = (pathname: string) => appRoutes.find((r) => matchPath({ path: r.path, end: true }, pathname));

/**
 * Once the profile is there, starts the page's first data requests (the route's `prefetch`) into the query cache, so
 * they run while the page's code downloads and React renders, instead of after the page's first render. Only for a
 * page the role may open (the API checks every read anyway); a failure is left to the page's own query.
 */
export async function prefetchPageData(
  location: { pathname: string; search: string },
  queryClient: QueryClient,
  profile: Promise<UserProfile>,
): Promise<void> {
  const route = routeOf(location.pathname);
  if (!route?.prefetch) return void profile.catch(() => undefined);
  try {
    const user = await profile;
    if (!mayOpen(user.role, route.access)) return;
    const params = matchPath({ path: route.path, end: true }, location.pathname)?.params ?? {};
    route.prefetch({ queryClient, profile: user, searchParams: new URLSearchParams(location.search), params });
  } catch {
    // The page reports its own errors when it renders.
  }
}

/** The main path of a route key (the first route that names it), e.g. for redirects and menus. */
export function pathOf(key: RouteKey): string {
  const route = appRoutes.find((r) => r.access === key);
  if (!route) throw new Error(`No route for ${key}`);
  return route.path.replace(/\/:[^/]+\?$/, '');
}
