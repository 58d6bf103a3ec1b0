import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, isProblem } from './problem';
import { idsCall } from './ids-call';
import { useUserProfile } from './session';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
type IdsCart = components['schemas']['IdsCart'];
export type IdsCartItem = components['schemas']['IdsCartItem'];
type IdsTokenResponse = components['schemas']['IdsTokenResponse'];

const idsKeys = { cart: (contextId: string) => ['ids', 'cart', contextId] as const };

/** Exchanges the one-time code of the /ids landing for an IDS session (single use, 60 s). */
export async function exchangeIdsCode(code: string): Promise<IdsTokenResponse> {
  const response = await fetch(`/v1/Ids?code=${encodeURIComponent(code)}`);
  if (!response.ok) {
    const problem: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isProblem(problem) ? problem : null);
  }
  return (await response.json()) as IdsTokenResponse;
}

/** The IDS context of the session (null outside one) with its pre-cart. */
export function useIdsContext() {
  const profile = useUserProfile();
  const contextId = profile.data?.idsContextId ?? null;
  const cart = useQuery({
    queryKey: idsKeys.cart(contextId ?? ''),
    queryFn: async (): Promise<IdsCart> =>
      (await idsCall('GET', `/v1/IdsCarts/${encodeURIComponent(contextId!)}`)).json(),
    enabled: Boolean(contextId),
  });
  return {
    contextId,
    cart,
    action: cart.data?.action ?? null,
    loading: profile.isPending || (Boolean(contextId) && cart.isPending),
  };
}

/** /warenkorb sends the user to the pre-cart while it has undeleted items that were not moved yet. */
export const preCartPending = (cart: IdsCart | undefined) =>
  Boolean(cart && !cart.movedToCart && !cart.completed && cart.items.some((i) => !i.isDeleted));

export function useIdsCartActions(contextId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: idsKeys.cart(contextId) });
  return {
    update: useMutation({
      mutationFn: async (v: { id: number; matchedProductInstanceId: string; matchedQuantity: number }) =>
        (await idsCall('PUT', `/v1/IdsCartItems/${v.id}`, {
          matchedProductInstanceId: v.matchedProductInstanceId,
          matchedQuantity: v.matchedQuantity,
        }).then((r) => r.json())) as IdsCartItem,
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: async (id: number) => void (await idsCall('DELETE', `/v1/IdsCartItems/${id}`)),
      onSuccess: refresh,
    }),
    removeAll: useMutation({
      mutationFn: async () => void (await idsCall('DELETE', `/v1/IdsCarts/${encodeURIComponent(contextId)}/items`)),
      onSuccess: refresh,
    }),
    moveToCart: useMutation({
      mutationFn: async () =>
        (await idsCall('POST', `/v1/IdsCarts/${encodeURIComponent(contextId)}`).then((r) => r.json())) as {
          cartId: number;
        },
      onSuccess: async () => {
        await refresh();
        await queryClient.invalidateQueries();
      },
    }),
  };
}

/**
 * complete (wke/wks) or Send (as). The answer is the form for the hook URL; the portal's own pages may
 * only post forms to the portal (Content-Security-Policy), so the browser opens the same form as the
 * single-use return page of our origin (X-Ids-Return-Page), whose policy allows the hook's origin.
 */
export async function idsReturnPage(
  contextId: string,
  request:
    | { withCheckout: boolean }
    | { productInstanceId: string; quantity: number; manufacturerId?: string | null; manufacturerPid?: string | null },
): Promise<string> {
  const id = encodeURIComponent(contextId);
  const response =
    'withCheckout' in request
      ? await idsCall('POST', `/v1/Ids/complete?idsContextId=${id}&withCheckout=${request.withCheckout}`)
      : await idsCall('POST', `/v1/Ids/Send?idsContextId=${id}`, request);
  const page = response.headers.get('x-ids-return-page');
  if (!page) throw new Error('IDS-Rückgabeseite fehlt');
  return page;
}

/**
 * Punchout (OCI, cXML): the session's cart goes into the procurement system's requisition. Like the IDS return,
 * the answer names the single-use return page that posts the form (OCI fields or cxml-urlencoded).
 */
export async function punchoutReturnPage(): Promise<string> {
  const response = await idsCall('POST', '/v1/Punchout/return');
  const page = response.headers.get('x-ids-return-page');
  if (!page) throw new Error('Punchout-Rückgabeseite fehlt');
  return page;
}

/** Punchout sessions are IDS contexts with these actions (docs/punchout.md). */
export const isPunchoutAction = (action: string | null) => action === 'oci' || action === 'cxml';

/** Leaves the portal for the return page (it posts the cart into the program's target frame). */
export function openIdsReturnPage(url: string): void {
  window.location.assign(url);
}

export const idsCredentialsApi = {
  get: async (): Promise<{ bpNumber: string; loginName: string | null; configured: boolean }> =>
    (await idsCall('GET', '/v1/IdsCredentials')).json(),
  save: async (body: { loginName: string; password: string }) =>
    (await idsCall('PUT', '/v1/IdsCredentials', body)).json(),
};

type PunchoutCredentials = components['schemas']['PunchoutCredentials'];
type UpdatePunchoutCredentials = components['schemas']['UpdatePunchoutCredentials'];

/** The buyer's punchout logins (OCI, cXML) at the current partner; secrets are never read back. */
export const punchoutCredentialsApi = {
  get: async (): Promise<PunchoutCredentials> => (await idsCall('GET', '/v1/PunchoutCredentials')).json(),
  save: async (body: UpdatePunchoutCredentials): Promise<PunchoutCredentials> =>
    (await idsCall('PUT', '/v1/PunchoutCredentials', body)).json(),
};

type PunchoutSessionSummary = components['schemas']['PunchoutSessionSummary'];

/** Staff: the latest punchout sessions (who, which partner, when, lines returned). */
export const punchoutSessionsApi = {
  list: async (): Promise<PunchoutSessionSummary[]> => (await idsCall('GET', '/v1/PunchoutSessions')).json(),
};
