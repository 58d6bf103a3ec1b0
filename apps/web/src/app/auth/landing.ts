import { Role } from '@shk/contracts';
import { sellerCatalogueUrl } from '../../ui/search-link';

/**
 * Where a fresh login lands: back on the page that asked for it, otherwise a seller on the catalogue
 * (/suche pre-filtered to SHKMARKET_11), role None on the home page and everyone else on /suche.
 */
export function landingPath(role: Role, returnTo?: string | null): string {
  if (
    returnTo &&
    returnTo.startsWith('/') &&
    !returnTo.startsWith('//') &&
    returnTo !== '/' &&
    !returnTo.startsWith('/auth-callback')
  ) {
    return returnTo;
  }
  if (role === Role.Seller) return sellerCatalogueUrl();
  if (role === Role.None) return '/';
  return '/suche';
}
