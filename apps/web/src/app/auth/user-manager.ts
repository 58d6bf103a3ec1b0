import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { ClientConfig } from '../../api/types';

/*
 * The part of signing in that needs oidc-client-ts. Imported only dynamically (main.tsx's loadUserManager, the IDS
 * landing page), so the library is not part of the entry script; the sign-in state itself is read by
 * src/api/auth-session.ts.
 */

/**
 * Authorization code + PKCE as a public client. The user and its tokens are kept in sessionStorage only
 * (not persistent: gone with the tab); a reload keeps them, a new tab gets its own through the provider
 * session (AuthSession.restore). Signing out removes them.
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
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    loadUserInfo: false,
    automaticSilentRenew: true,
    revokeTokensOnSignout: true,
    revokeTokenTypes: ['refresh_token'],
  });
}

/** In the silent-renew iframe: hands the provider's response to the parent window. */
export async function completeSilentRenew(): Promise<void> {
  await new UserManager({ authority: '', client_id: '', redirect_uri: '' }).signinSilentCallback();
}
