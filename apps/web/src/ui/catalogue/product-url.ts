import { ID_SEPARATOR } from '@shk/contracts';

/**
 * '/produkt?id=…&articleNumber=…&searchTerm=…' – id is the product (manufacturer id and manufacturer
 * article number joined by '~'); articleNumber picks the offer: a product instance id (supplier id '~'
 * supplier article number) or a plain article number (manufacturer or supplier article number, GTIN).
 */
export function productUrl(options: {
  productId: string;
  articleNumber?: string | null;
  searchTerm?: string | null;
}): string {
  const params = new URLSearchParams({ id: options.productId });
  if (options.articleNumber) params.set('articleNumber', options.articleNumber);
  if (options.searchTerm) params.set('searchTerm', options.searchTerm);
  // "~" is unreserved in URLs; keep the ids readable.
  return `/produkt?${params.toString().replace(/%7E/gi, '~')}`;
}

/** Splits 'manufacturerId~manufacturerPid' (the article number may itself contain the separator). */
export function parseProductId(
  id: string | null | undefined,
): { manufacturerId: string; manufacturerPid: string } | null {
  if (!id) return null;
  const at = id.indexOf(ID_SEPARATOR);
  if (at <= 0 || at === id.length - 1) return null;
  return { manufacturerId: id.slice(0, at), manufacturerPid: id.slice(at + 1) };
}

/** Whether an article number names an offer (product instance id: supplier id '~' supplier article number). */
export const isProductInstanceId = (value: string | null | undefined): value is string =>
  Boolean(value && value.indexOf(ID_SEPARATOR) > 0);
