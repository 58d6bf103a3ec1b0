import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from 'react-oidc-context';
import type { UserManager } from 'oidc-client-ts';
import { configureApiAuth } from '../api/client';
import { createQueryClient } from '../api/query-client';
import type { ClientConfig } from '../api/types';
import { createTokenSource } from './auth/user-manager';
import { AppRoutes } from './router';
import { cssVariablesResolver, theme } from './theme';

/** Removes ?code=…&state=… after the sign-in callback without disturbing the router's history entry. */
const forgetAuthParams = () => window.history.replaceState(window.history.state, '', window.location.pathname);

export interface Session {
  queryClient: QueryClient;
  /** Where the identity provider sends the browser back after sign-in (a route of its own). */
  callbackPath: string;
}

/** The query cache, the API's token source and the callback route of one page load (created once, before the first render). */
export function createSession(config: ClientConfig, userManager: UserManager): Session {
  const queryClient = createQueryClient();
  configureApiAuth({
    getAccessToken: createTokenSource(userManager),
    // The API no longer accepts the token (expired, revoked): forget it, the guard then shows 'Willkommen'.
    onUnauthorized: () => void userManager.removeUser(),
  });
  // Nothing of one user's data survives into the next session.
  userManager.events.addUserUnloaded(() => queryClient.clear());
  return { queryClient, callbackPath: config.callbackPath };
}

export function App({
  session: { queryClient, callbackPath },
  userManager,
}: {
  session: Session;
  userManager: UserManager;
}) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <AuthProvider userManager={userManager} onSigninCallback={forgetAuthParams}>
          <BrowserRouter>
            <AppRoutes callbackPath={callbackPath} />
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
