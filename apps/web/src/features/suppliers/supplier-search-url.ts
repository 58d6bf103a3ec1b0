import { OrganisationType, selectionFilter } from '@shk/contracts';
import { searchUrl } from '../../ui/search-url';

interface SupplierRef {
  bpNumber: string;
  name: string;
  organisationType?: number | null;
}

/**
 * The search for a supplier's offers (spec §2 'My suppliers'): wholesalers by the 'wholesalers' column,
 * manufacturers by 'supplierID' (both carry the supplier's business-partner number), else the name
 * as search term.
 */
export function supplierSearchUrl(supplier: SupplierRef): string {
  if (!supplier.bpNumber) return searchUrl({ term: supplier.name, page: 1 });
  const columnName = supplier.organisationType === OrganisationType.Wholesaler ? 'wholesalers' : 'supplierID';
  return searchUrl({ page: 1, filters: [selectionFilter(columnName, [supplier.bpNumber])] });
}
