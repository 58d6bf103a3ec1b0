import { keepPreviousData } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys, type SearchRequest } from '../../api/catalogue';
import { usePartnerQuery } from '../../api/session';
import type { SearchFilter } from '@shk/contracts';

/** POST /v1/Product/Search; the previous result stays visible while the next page or filter loads. */
export function useProductSearch(request: SearchRequest, enabled = true) {
  return usePartnerQuery(catalogueKeys.search(request), () => catalogueApi.search(request), {
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled,
  });
}

/** All values of one filter (POST /v1/Product/FilterOptions) for the show-more list. */
export function useAllFilterValues(filterName: string, term: string, filters: SearchFilter[], enabled: boolean) {
  const body = { filterName, searchTerm: term, filters };
  return usePartnerQuery(catalogueKeys.filterOptions(body), () => catalogueApi.filterOptions(body), {
    enabled,
    staleTime: 30_000,
  });
}
