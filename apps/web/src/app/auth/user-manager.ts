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
 * Authorization code + PKCE as a public client. The user is kept in localStorage so that tabs opened
 * from the portal stay signed in; signing out removes it.
 */
export function createUserManager(config: ClientConfig): UserManager {
  const origin = window.location.origin;
  return new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    scope: config.scope,
    redirect_uri: origin + config.callbackPath,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    loadUserInfo: false,
    automaticSilentRenew: true,
    revokeTokensOnSignout: true,
    revokeTokenTypes: ['refresh_token'],
  });
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
