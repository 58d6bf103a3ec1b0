import { useMemo } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys } from './catalogue';
import { prefetchPartnerQuery, usePartnerQuery, useUserProfile } from './session';
import type { UserProfile } from './types';

const unitsQuery = { queryKey: catalogueKeys.units, queryFn: catalogueApi.units, staleTime: Infinity };
const TREE_STALE_MS = 10 * 60_000;

/** The units of measure (GET /v1/Units) as code → short description; they never change during a session. */
export function useUnits(): Map<string, string> {
  const profile = useUserProfile();
  const units = useQuery({ ...unitsQuery, enabled: profile.isSuccess });
  // One Map per answer, not per render: memoised lists (the search hits) keep it as an unchanged prop.
  return useMemo(() => new Map(units.data?.map((unit) => [unit.code, unit.shortDescription]) ?? []), [units.data]);
}

/** The product tree with the current partner's counts. */
export function useProductTree() {
  return usePartnerQuery(catalogueKeys.tree, catalogueApi.productTree, { staleTime: TREE_STALE_MS });
}

/**
 * The catalogue reads beside a page's own data (units of the prices, the product tree of the search page's sidebar),
 * started with the page's first request instead of after its first render.
 */
export function prefetchCatalogueBasics(
  queryClient: QueryClient,
  profile: UserProfile,
  { tree }: { tree: boolean },
): void {
  void queryClient.prefetchQuery(unitsQuery);
  if (tree)
    void prefetchPartnerQuery(queryClient, profile, catalogueKeys.tree, catalogueApi.productTree, TREE_STALE_MS);
}

/** Search suggestions for a (debounced) term. */
export function useSuggestions(term: string, enabled: boolean) {
  return usePartnerQuery(catalogueKeys.suggestions(term), () => catalogueApi.suggestions(term), {
    enabled,
    staleTime: 5 * 60_000,
  });
}
