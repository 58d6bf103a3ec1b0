import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys } from './catalogue';
import { usePartnerQuery, useUserProfile } from './session';

/** The units of measure (GET /v1/Units) as code → short description; they never change during a session. */
export function useUnits(): Map<string, string> {
  const profile = useUserProfile();
  const units = useQuery({
    queryKey: catalogueKeys.units,
    queryFn: catalogueApi.units,
    enabled: profile.isSuccess,
    staleTime: Infinity,
  });
  // One Map per answer, not per render: memoised lists (the search hits) keep it as an unchanged prop.
  return useMemo(() => new Map(units.data?.map((unit) => [unit.code, unit.shortDescription]) ?? []), [units.data]);
}

/** The product tree with the current partner's counts. */
export function useProductTree() {
  return usePartnerQuery(catalogueKeys.tree, catalogueApi.productTree, { staleTime: 10 * 60_000 });
}

/** Search suggestions for a (debounced) term. */
export function useSuggestions(term: string, enabled: boolean) {
  return usePartnerQuery(catalogueKeys.suggestions(term), () => catalogueApi.suggestions(term), {
    enabled,
    staleTime: 5 * 60_000,
  });
}
