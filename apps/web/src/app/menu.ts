import { messages, Role } from '@shk/contracts';
import { sellerCatalogueUrl } from '../ui/search-link';
import { isRouteKeyAllowed, type RouteKey } from './access';
import { pathOf } from './routes';

export interface MenuItem {
  label: string;
  to: string;
  routeKey: RouteKey;
  /** Why the entry is disabled right now (shown as tooltip); undefined when enabled. */
  disabledReason?: string;
}

interface MenuContext {
  role: Role;
  /** Set while the portal runs inside a procurement system (IDS). */
  inIdsContext: boolean;
}

const item = (routeKey: RouteKey, label: string, to = pathOf(routeKey)): MenuItem => ({ routeKey, label, to });

/** Menus exactly as the spec lists them (buyer-side.md §2, seller-staff-side.md §2); 'Abmelden' is added by the shell. */
function buyerMenu({ inIdsContext }: MenuContext): MenuItem[] {
  return [
    item('search', 'Suche'),
    item('favourites', 'Meine Favoriten'),
    {
      ...item('myCarts', 'Meine Warenkörbe'),
      disabledReason: inIdsContext ? messages.idsMultiCartDisabled : undefined,
    },
    item('orders', 'Meine Bestellungen'),
    item('mySuppliers', 'Meine Lieferanten'),
    item('profile', 'Mein Profil'),
  ];
}

function sellerMenu(): MenuItem[] {
  return [
    item('search', 'Produktkatalog', sellerCatalogueUrl()),
    item('myCustomers', 'Meine Kunden'),
    item('supplierOrders', 'Bestellungen'),
    item('catalogueImport', 'Katalogimport'),
    item('profile', 'Mein Profil'),
  ];
}

/** Staff see every entry their allowed routes contain (custom parameters: administrators only). */
function staffMenu({ role }: MenuContext): MenuItem[] {
  return [
    item('search', 'Suche'),
    item('businessPartner', 'Geschäftspartner'),
    item('dashboard', 'Dashboard'),
    item('reports', 'Berichte'),
    item('admin', 'Lieferanten'),
    item('orders', 'Bestellungen'),
    item('customParameter', 'Parameter'),
    item('profile', 'Mein Profil'),
  ].filter((entry) => isRouteKeyAllowed(role, entry.routeKey));
}

export function menuFor(context: MenuContext): MenuItem[] {
  switch (context.role) {
    case Role.Buyer:
      return buyerMenu(context);
    case Role.Seller:
      return sellerMenu();
    case Role.Administrator:
    case Role.Support:
    case Role.PlatformOperator:
      return staffMenu(context);
    default:
      return [];
  }
}
