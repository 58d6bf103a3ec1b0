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
 * Silent renewal loads the callback URL in a hidden iframe; there only the response is handed to the
 * parent window instead of starting the whole app.
 */
export function isSilentRenewFrame(callbackPath = '/auth-callback'): boolean {
  return window.parent !== window && window.location.pathname === callbackPath;
}

export async function completeSilentRenew(): Promise<void> {
  await new UserManager({ authority: '', client_id: '', redirect_uri: '' }).signinSilentCallback();
}
