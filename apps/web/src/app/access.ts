import { Role } from '@shk/contracts';

/**
 * Route keys of the spec's role → allowed-routes table (seller-staff-side.md §6). A route in routes.tsx
 * names one of these keys, or 'public' (legal pages, /ids, error pages) or 'signedIn' (any known user).
 */
export type RouteKey =
  | 'home'
  | 'search'
  | 'cart'
  | 'preCart'
  | 'orders'
  | 'profile'
  | 'product'
  | 'mySuppliers'
  | 'addToCart'
  | 'myCarts'
  | 'favourites'
  | 'myCustomers'
  | 'supplierOrders'
  | 'businessPartner'
  | 'dashboard'
  | 'reports'
  | 'admin'
  | 'customParameter'
  | 'catalogueImport';

export type RouteAccess = RouteKey | 'public' | 'signedIn';

const staffRoutes: readonly RouteKey[] = [
  'home',
  'search',
  'businessPartner',
  'dashboard',
  'reports',
  'admin',
  'orders',
  'product',
];

/** The table itself, in the spec's order: the first entry is where a disallowed route leads. */
export const allowedRoutes: Readonly<Record<Role, readonly RouteKey[]>> = {
  [Role.Buyer]: [
    'home',
    'search',
    'cart',
    'preCart',
    'orders',
    'profile',
    'product',
    'mySuppliers',
    'addToCart',
    'myCarts',
    'favourites',
  ],
  [Role.Seller]: ['home', 'search', 'product', 'orders', 'profile', 'myCustomers', 'supplierOrders', 'catalogueImport'],
  [Role.Administrator]: [...staffRoutes, 'customParameter', 'catalogueImport'],
  [Role.Support]: staffRoutes,
  [Role.PlatformOperator]: staffRoutes,
  [Role.None]: ['home'],
};

export const isRouteKeyAllowed = (role: Role, key: RouteKey) => allowedRoutes[role].includes(key);

/** Whether a signed-in user of this role may open a route with the given access. */
export function mayOpen(role: Role, access: RouteAccess): boolean {
  if (access === 'public' || access === 'signedIn') return true;
  return isRouteKeyAllowed(role, access);
}

export const firstAllowedRouteKey = (role: Role): RouteKey => allowedRoutes[role][0];
