import { keepPreviousData } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys, type SearchRequest } from '../../api/catalogue';
import { prefetchCatalogueBasics } from '../../api/catalogue-queries';
import { prefetchConfigurationValues } from '../../api/configuration';
import { prefetchPartnerQuery, usePartnerQuery } from '../../api/session';
import { FeatureSettingKey, type SearchFilter } from '@shk/contracts';
import type { PagePrefetch } from '../../api/page-prefetch';
import { readSearchState, searchRequestOf } from './search-state';
import { filterParserLoaded, loadFilterParser } from '../../ui/search-url';

const SEARCH_STALE_MS = 30_000;

/** POST /v1/Product/Search; the previous result stays visible while the next page or filter loads. */
export function useProductSearch(request: SearchRequest, enabled = true) {
  return usePartnerQuery(catalogueKeys.search(request), () => catalogueApi.search(request), {
    placeholderData: keepPreviousData,
    staleTime: SEARCH_STALE_MS,
    enabled,
  });
}

/** The search of the address opened, started before the page renders (the same key as useProductSearch's). */
export function prefetchSearch({ queryClient, profile, searchParams }: PagePrefetch) {
  const search = () => {
    const request = searchRequestOf(readSearchState(searchParams));
    void prefetchPartnerQuery(
      queryClient,
      profile,
      catalogueKeys.search(request),
      () => catalogueApi.search(request),
      SEARCH_STALE_MS,
    );
  };
  // Filters in the address are read by their parser, loaded on demand (the page waits for it too).
  if (searchParams.get('filters') && !filterParserLoaded()) void loadFilterParser().then(search, () => undefined);
  else search();
  // The sidebar's tree and the prices' units come with it instead of after the page's first render, and so does the
  // kitchen banner's setting. Requested after the search: the hits are the page's largest paint, and the browser's
  // six connections are busy with the page's code, so the request asked first gets the first free one.
  prefetchCatalogueBasics(queryClient, profile, { tree: true });
  prefetchConfigurationValues(queryClient, [FeatureSettingKey.ManufacturerBannerSupplier]);
}

/** All values of one filter (POST /v1/Product/FilterOptions) for the show-more list. */
export function useAllFilterValues(filterName: string, term: string, filters: SearchFilter[], enabled: boolean) {
  const body = { filterName, searchTerm: term, filters };
  return usePartnerQuery(catalogueKeys.filterOptions(body), () => catalogueApi.filterOptions(body), {
    enabled,
    staleTime: 30_000,
  });
}
