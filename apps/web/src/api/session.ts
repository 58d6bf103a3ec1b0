import { useCallback } from 'react';
import { useAuth } from './auth';
import { useMutation, useQuery, type QueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { api } from './client';
import { expectStatus, unwrap } from './problem';
import { queryKeys } from './query-keys';
import { cartMemory } from './cart-memory';
import { endIdsSession } from './ids-call';
import type { UserProfile } from './types';

/** The profile read (also started before the first render by main.tsx, so it runs while React starts). */
export const userProfileQuery = {
  queryKey: queryKeys.userProfile,
  queryFn: async (): Promise<UserProfile> => unwrap(await api.GET('/v1/UserProfile')),
  staleTime: 5 * 60_000,
};

/** The signed-in user's profile: role, current business partner and the partners to switch to. */
export function useUserProfile() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...userProfileQuery, enabled: isAuthenticated });
}

/**
 * The same profile read for controls repeated in lists (a hit's cart and favourite buttons: 50 on a search page). This
 * observer never marks the answer stale, so it installs no stale timer on mount (one `setTimeout` per observer, about
 * a third of the search page's 25-hit commit) and never refetches; the page's own observers (route guard, header)
 * keep the cached answer fresh, and these buttons re-render with every new answer as before.
 */
export function useListedUserProfile() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...listedUserProfileQuery, enabled: isAuthenticated });
}

/** useListedUserProfile's options: the profile read without a stale time of its own. */
export const listedUserProfileQuery = { ...userProfileQuery, staleTime: Infinity };

/**
 * A read cached per current business partner: the partner number is part of the key, so a switch
 * never shows the previous partner's data. Runs once the profile is known.
 */
export function usePartnerQuery<T>(
  key: readonly unknown[],
  queryFn: () => Promise<T>,
  options: Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'> = {},
) {
  const profile = useUserProfile();
  const bpNumber = profile.data?.currentBpNumber ?? null;
  return useQuery({
    ...options,
    queryKey: queryKeys.partnerScoped(bpNumber, ...key),
    queryFn,
    enabled: profile.isSuccess && (options.enabled ?? true),
  });
}

/**
 * Starts a partner-scoped read into the cache under the key usePartnerQuery gives it (nothing when a fresh answer is
 * cached): main.tsx and the pages' `prefetch` use it to request what the first render shows while the code loads.
 * `staleTime`: the reading hook's; none for a hook that uses the client's default.
 */
export function prefetchPartnerQuery<T>(
  queryClient: QueryClient,
  profile: UserProfile,
  key: readonly unknown[],
  queryFn: () => Promise<T>,
  staleTime?: number,
): Promise<void> {
  return queryClient.prefetchQuery({
    queryKey: queryKeys.partnerScoped(profile.currentBpNumber, ...key),
    queryFn,
    staleTime,
  });
}

/**
 * Switches the current business partner. On 204 the cart memory is cleared and the portal reloads on
 * the home page (spec: a full reload drops every cached read of the previous partner).
 */
export function useSwitchPartner() {
  return useMutation({
    mutationFn: async (bpNumber: string) => expectStatus(await api.PUT('/v1/UserProfile', { body: { bpNumber } }), 204),
    onSuccess: () => {
      cartMemory.clear();
      window.location.assign('/');
    },
  });
}

/** Where to come back to after the identity provider. */
export interface SignInState {
  returnTo?: string;
}

export function useSignIn() {
  const auth = useAuth();
  return useCallback((returnTo?: string) => auth.signinRedirect({ state: { returnTo } satisfies SignInState }), [auth]);
}

/**
 * Signs out for real: forgets the cart and the stored user, then ends the identity provider's session. An IDS session
 * has no provider session: the API revokes its token (POST /v1/Ids/Logout) and the tab forgets it.
 */
export function useSignOut() {
  const auth = useAuth();
  const inIdsSession = Boolean(useUserProfile().data?.idsContextId);
  return useCallback(async () => {
    cartMemory.clear();
    if (inIdsSession) {
      await endIdsSession().catch(() => undefined);
      await auth.removeUser();
      window.location.assign('/');
      return;
    }
    try {
      await auth.signoutRedirect();
    } catch {
      // Provider unreachable: at least forget the tokens locally.
      await auth.removeUser();
      window.location.assign('/');
    }
  }, [auth, inIdsSession]);
}
