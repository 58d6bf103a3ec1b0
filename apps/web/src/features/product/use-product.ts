import { keepPreviousData } from '@tanstack/react-query';
import { FeatureSettingKey, limits } from '@shk/contracts';
import { catalogueApi, catalogueKeys } from '../../api/catalogue';
import { queryKeys } from '../../api/query-keys';
import { prefetchCatalogueBasics } from '../../api/catalogue-queries';
import { prefetchConfigurationValues } from '../../api/configuration';
import { prefetchPartnerQuery, usePartnerQuery } from '../../api/session';
import type { PagePrefetch } from '../../api/page-prefetch';
import { isProductInstanceId, parseProductId } from '../../ui/catalogue/product-url';

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

/** The product of the address opened (ProductPage's reading of it), started before the page renders. */
export function prefetchProduct({ queryClient, profile, searchParams }: PagePrefetch) {
  const parsed = parseProductId(searchParams.get('id'));
  if (!parsed) return;
  const articleNumber = searchParams.get('articleNumber')?.trim() || null;
  const productInstanceId = isProductInstanceId(articleNumber) ? articleNumber : null;
  const { manufacturerId, manufacturerPid } = parsed;
  const productKey = queryKeys.partnerScoped(
    profile.currentBpNumber,
    ...catalogueKeys.product(manufacturerId, manufacturerPid, productInstanceId),
  );
  void queryClient
    .prefetchQuery({
      queryKey: productKey,
      queryFn: () => catalogueApi.productByManufacturerData(manufacturerId, manufacturerPid, productInstanceId),
    })
    .then(() => {
      // The offers of the chosen one follow the product's answer (useOffers reads the same id from it).
      const chosen = queryClient.getQueryData<{ productInstanceId?: string | null }>(productKey)?.productInstanceId;
      if (chosen)
        void prefetchPartnerQuery(
          queryClient,
          profile,
          catalogueKeys.details(chosen),
          offersOf(chosen),
          OFFERS_STALE_MS,
        );
    });
  prefetchCatalogueBasics(queryClient, profile, { tree: false });
  // The settings the page's first render reads (note of use, introductory video), with the product.
  prefetchConfigurationValues(queryClient, productPageSettings);
}

/** The configuration values the product page shows (ProductPage, IntroductoryVideoModal). */
const productPageSettings = [
  FeatureSettingKey.NoteOfUseAllowedSuppliers,
  FeatureSettingKey.IntroductoryVideoManufacturer,
  FeatureSettingKey.IntroductoryVideoUrl,
] as const;

const OFFERS_STALE_MS = 60_000;
const offersOf = (productInstanceId: string) => () => catalogueApi.details(productInstanceId);

/** All suppliers' offers of the product (GET /v1/Product/Details). */
export function useOffers(productInstanceId: string | null) {
  return usePartnerQuery(catalogueKeys.details(productInstanceId ?? ''), offersOf(productInstanceId ?? ''), {
    enabled: Boolean(productInstanceId),
    placeholderData: keepPreviousData,
    staleTime: OFFERS_STALE_MS,
  });
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
