import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The seeded demo users (password 'demo') and what the spec says each of them sees. */
export interface DemoUser {
  key: 'buyer' | 'buyer2' | 'seller' | 'admin' | 'support' | 'operator' | 'none';
  email: string;
  roleLabel: string;
  /** Exact main menu, 'Abmelden' included. */
  menu: string[];
  /** Route keys of the spec's role → allowed-routes table. */
  allowed: RouteKey[];
}

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

/** Every route of the spec's table with the URL that opens it. */
export const routeUrls: Record<RouteKey, string> = {
  home: '/',
  search: '/suche',
  cart: '/warenkorb',
  preCart: '/ids-warenkorb',
  orders: '/bestellungen',
  profile: '/profil',
  product: '/produkt',
  mySuppliers: '/meine-lieferanten',
  addToCart: '/add-to-cart',
  myCarts: '/my-carts',
  favourites: '/meine-favoriten',
  myCustomers: '/meine-kunden',
  supplierOrders: '/lieferantenbestellungen',
  businessPartner: '/geschaeftspartner',
  dashboard: '/dashboard',
  reports: '/berichte',
  admin: '/admin',
  customParameter: '/parameter',
  catalogueImport: '/admin/katalogimport',
};

const buyerRoutes: RouteKey[] = [
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
];
const staffRoutes: RouteKey[] = [
  'home',
  'search',
  'businessPartner',
  'dashboard',
  'reports',
  'admin',
  'orders',
  'product',
];
const buyerMenu = [
  'Suche',
  'Meine Favoriten',
  'Meine Warenkörbe',
  'Meine Bestellungen',
  'Meine Lieferanten',
  'Mein Profil',
  'Abmelden',
];
const staffMenu = ['Suche', 'Geschäftspartner', 'Dashboard', 'Berichte', 'Lieferanten', 'Bestellungen', 'Abmelden'];

export const demoUsers: DemoUser[] = [
  { key: 'buyer', email: 'einkauf@example.com', roleLabel: 'Einkäufer', menu: buyerMenu, allowed: buyerRoutes },
  { key: 'buyer2', email: 'einkauf2@example.com', roleLabel: 'Einkäufer', menu: buyerMenu, allowed: buyerRoutes },
  {
    key: 'seller',
    email: 'verkauf@example.com',
    roleLabel: 'Verkäufer',
    menu: ['Produktkatalog', 'Meine Kunden', 'Bestellungen', 'Katalogimport', 'Mein Profil', 'Abmelden'],
    allowed: ['home', 'search', 'product', 'orders', 'profile', 'myCustomers', 'supplierOrders', 'catalogueImport'],
  },
  {
    key: 'admin',
    email: 'admin@example.com',
    roleLabel: 'Administrator',
    menu: [
      'Suche',
      'Geschäftspartner',
      'Dashboard',
      'Berichte',
      'Lieferanten',
      'Bestellungen',
      'Parameter',
      'Abmelden',
    ],
    allowed: [...staffRoutes, 'customParameter', 'catalogueImport'],
  },
  { key: 'support', email: 'support@example.com', roleLabel: 'Support', menu: staffMenu, allowed: staffRoutes },
  {
    key: 'operator',
    email: 'betrieb@example.com',
    roleLabel: 'Plattformbetreiber',
    menu: staffMenu,
    allowed: staffRoutes,
  },
  { key: 'none', email: 'gast@example.com', roleLabel: 'Keine Rolle', menu: ['Abmelden'], allowed: ['home'] },
];

export const userByKey = (key: DemoUser['key']) => demoUsers.find((u) => u.key === key)!;

/**
 * The stored browser session of a demo user (written by login.setup.ts). scripts/e2e.mjs points
 * E2E_AUTH_DIR into the run's temporary folder: the tokens belong to that run's server.
 */
export const sessionFile = (key: DemoUser['key']) =>
  path.join(
    process.env.E2E_AUTH_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.auth'),
    `${key}.json`,
  );

/** The seller's catalogue filter as the URL carries it: base64 of the JSON list. */
export const sellerCatalogueFilter = [
  { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_11' }] },
];
