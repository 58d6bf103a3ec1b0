import { keepPreviousData } from '@tanstack/react-query';
import { limits } from '@shk/contracts';
import { catalogueApi, catalogueKeys } from '../../api/catalogue';
import { usePartnerQuery } from '../../api/session';

/** The product with the chosen offer (GET /v1/Product/ByManufacturerData); the previous one stays while switching offers. */
export function useProduct(
  manufacturerId: string | null,
  manufacturerPid: string | null,
  productInstanceId: string | null,
) {
  return usePartnerQuery(
    catalogueKeys.product(manufacturerId ?? '', manufacturerPid ?? '', productInstanceId),
    () => catalogueApi.productByManufacturerData(manufacturerId!, manufacturerPid!, productInstanceId),
    { enabled: Boolean(manufacturerId && manufacturerPid), placeholderData: keepPreviousData },
  );
}

/** All suppliers' offers of the product (GET /v1/Product/Details). */
export function useOffers(productInstanceId: string | null) {
  return usePartnerQuery(
    catalogueKeys.details(productInstanceId ?? ''),
    () => catalogueApi.details(productInstanceId!),
    { enabled: Boolean(productInstanceId), placeholderData: keepPreviousData },
  );
}

/**
 * /produkt?articleNumber=… without id (e.g. from a procurement system): the article is looked up by
 * number (GTIN, manufacturer, supplier or catalogue article number).
 */
export function useArticleNumberLookup(articleNumber: string | null) {
  const body = { page: 1, pageSize: 1, searchTerm: articleNumber ?? '', useNumberSearch: true };
  return usePartnerQuery(catalogueKeys.search(body), () => catalogueApi.search(body), {
    enabled: Boolean(articleNumber) && (articleNumber?.length ?? 0) <= limits.searchTermMaxLength,
    staleTime: 60_000,
  });
}
