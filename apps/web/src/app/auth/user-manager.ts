import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { api } from '../../api/client';
import type { ClientConfig } from '../../api/types';

/** Reads where and how to sign in (GET /v1/ClientConfig), so one build serves every deployment. */
export async function loadClientConfig(): Promise<ClientConfig> {
  const { data, response } = await api.GET('/v1/ClientConfig');
  if (!data) throw new Error(`ClientConfig: HTTP ${response.status}`);
  return data;
}

/**
 * Marks (in localStorage, without any token) that this browser signed in, so that a new tab or window first
 * asks the provider session silently instead of showing 'Willkommen'. Removed when the user signs out or the
 * provider session is gone.
 */
export const SIGNED_IN_HINT = 'shk.signedIn';

/**
 * Authorization code + PKCE as a public client. The user and its tokens are kept in sessionStorage only
 * (not persistent: gone with the tab); a reload keeps them, a new tab gets its own through the provider
 * session (restoreSession). Signing out removes them.
 */
export function createUserManager(config: ClientConfig): UserManager {
  const origin = window.location.origin;
  const userManager = new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    scope: config.scope,
    redirect_uri: origin + config.callbackPath,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    loadUserInfo: false,
    automaticSilentRenew: true,
    revokeTokensOnSignout: true,
    revokeTokenTypes: ['refresh_token'],
  });
  userManager.events.addUserLoaded(() => window.localStorage.setItem(SIGNED_IN_HINT, '1'));
  userManager.events.addUserUnloaded(() => window.localStorage.removeItem(SIGNED_IN_HINT));
  return userManager;
}

/**
 * Before the first render: a stored user whose token expired is renewed; a tab without a stored user (a new
 * tab, a closed and reopened browser) signs in silently through the provider session when this browser was
 * signed in. Not on the sign-in callback, which completes its own sign-in.
 */
export async function restoreSession(userManager: UserManager, callbackPath: string): Promise<void> {
  if (window.location.pathname === callbackPath) return;
  if (await userManager.getUser()) {
    await createTokenSource(userManager)();
    return;
  }
  if (!window.localStorage.getItem(SIGNED_IN_HINT)) return;
  try {
    await userManager.signinSilent();
  } catch {
    window.localStorage.removeItem(SIGNED_IN_HINT);
  }
}

/**
 * A fresh access token, renewed silently through the provider session when the stored one has expired
 * (a tab that slept, a page opened after the token's few minutes). Concurrent callers share one renewal;
 * null when there is no user or the provider session is gone too (then the user is forgotten and the
 * guard shows 'Willkommen').
 */
export function createTokenSource(userManager: UserManager): () => Promise<string | null> {
  let renewing: Promise<string | null> | null = null;
  const renew = async () => {
    try {
      const user = await userManager.signinSilent();
      return user && !user.expired ? user.access_token : null;
    } catch {
      await userManager.removeUser();
      return null;
    }
  };
  return async () => {
    const user = await userManager.getUser();
    if (!user) return null;
    if (!user.expired) return user.access_token;
    renewing ??= renew().finally(() => (renewing = null));
    return renewing;
  };
}

/**
 * Silent renewal loads the callback URL in a hidden iframe; there only the response is handed to the
 * parent window instead of starting the whole app.
 */
export function isSilentRenewFrame(callbackPath = '/auth-callback'): boolean {
  return window.parent !== window && window.location.pathname === callbackPath;
}

export async function completeSilentRenew(): Promise<void> {
  await new UserManager({ authority: '', client_id: '', redirect_uri: '' }).signinSilentCallback();
}
