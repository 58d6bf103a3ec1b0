import { describe, expect, it, vi } from 'vitest';
import { messages, Role } from '@shk/contracts';
import { allowedRoutes, firstAllowedRouteKey, mayOpen } from './access';
import { landingPath } from './auth/landing';
import { menuFor } from './menu';
import { appRoutes, pathOf } from './routes';

// The route table holds the pages' prefetch, whose API client reads the page's origin when its module loads.
vi.hoisted(() => vi.stubGlobal('window', { location: { origin: 'http://portal.test' } }));

const labels = (role: Role, inIdsContext = false) => menuFor({ role, inIdsContext }).map((item) => item.label);

describe('role → allowed routes (spec table)', () => {
  it('matches the table and leads disallowed routes to the first allowed one', () => {
    expect(allowedRoutes[Role.None]).toEqual(['home']);
    expect(allowedRoutes[Role.Administrator]).toContain('customParameter');
    expect(allowedRoutes[Role.Support]).not.toContain('customParameter');
    expect(allowedRoutes[Role.PlatformOperator]).toEqual(allowedRoutes[Role.Support]);
    for (const role of Object.values(Role)) expect(pathOf(firstAllowedRouteKey(role))).toBe('/');
  });

  it('keeps public and signed-in pages open for every role', () => {
    expect(mayOpen(Role.None, 'public')).toBe(true);
    expect(mayOpen(Role.None, 'signedIn')).toBe(true);
    expect(mayOpen(Role.None, 'search')).toBe(false);
    expect(mayOpen(Role.Seller, 'myCarts')).toBe(false);
  });

  it('has a route for every key of the table', () => {
    const keys = new Set(Object.values(allowedRoutes).flat());
    for (const key of keys) expect(appRoutes.some((route) => route.access === key)).toBe(true);
    for (const path of ['/impressum', '/datenschutz', '/agb', '/cookie-declaration', '/ids']) {
      expect(appRoutes.find((route) => route.path === path)?.access).toBe('public');
    }
  });
});

describe('menus', () => {
  it('are exactly the spec menus', () => {
    expect(labels(Role.Buyer)).toEqual([
      'Suche',
      'Meine Favoriten',
      'Meine Warenkörbe',
      'Meine Bestellungen',
      'Meine Lieferanten',
      'Mein Profil',
    ]);
    expect(labels(Role.Seller)).toEqual([
      'Produktkatalog',
      'Meine Kunden',
      'Bestellungen',
      'Katalogimport',
      'Mein Profil',
    ]);
    expect(labels(Role.Administrator)).toEqual([
      'Suche',
      'Geschäftspartner',
      'Dashboard',
      'Berichte',
      'Lieferanten',
      'Bestellungen',
      'Parameter',
    ]);
    expect(labels(Role.Support)).toEqual([
      'Suche',
      'Geschäftspartner',
      'Dashboard',
      'Berichte',
      'Lieferanten',
      'Bestellungen',
    ]);
    expect(labels(Role.None)).toEqual([]);
  });

  it('only link to routes the role may open', () => {
    for (const role of Object.values(Role)) {
      for (const item of menuFor({ role, inIdsContext: false })) expect(mayOpen(role, item.routeKey)).toBe(true);
    }
  });

  it('disables multiple carts in IDS context with the spec tooltip', () => {
    const carts = menuFor({ role: Role.Buyer, inIdsContext: true }).find((item) => item.routeKey === 'myCarts');
    expect(carts?.disabledReason).toBe(messages.idsMultiCartDisabled);
    expect(
      menuFor({ role: Role.Buyer, inIdsContext: false }).find((item) => item.routeKey === 'myCarts')?.disabledReason,
    ).toBeUndefined();
  });
});

describe('login landing', () => {
  it('sends sellers to the catalogue, None home and everyone else to /suche', () => {
    expect(landingPath(Role.Seller)).toMatch(/^\/suche\?filters=/);
    expect(landingPath(Role.Buyer)).toBe('/suche');
    expect(landingPath(Role.Administrator)).toBe('/suche');
    expect(landingPath(Role.None)).toBe('/');
  });

  it('returns to a deep link but never off-site or to the callback', () => {
    expect(landingPath(Role.Buyer, '/bestellungen/bestellung?id=7')).toBe('/bestellungen/bestellung?id=7');
    expect(landingPath(Role.Buyer, '/')).toBe('/suche');
    expect(landingPath(Role.Buyer, '//evil.example')).toBe('/suche');
    expect(landingPath(Role.Buyer, 'https://evil.example')).toBe('/suche');
    expect(landingPath(Role.Buyer, '/auth-callback?code=1')).toBe('/suche');
  });
});
