import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { AuthProvider } from 'react-oidc-context';
import type { UserManager } from 'oidc-client-ts';
import { configureApiAuth } from '../api/client';
import { createQueryClient } from '../api/query-client';
import type { ClientConfig } from '../api/types';
import { createTokenSource } from './auth/user-manager';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

/** Removes ?code=…&state=… after the sign-in callback without disturbing the router's history entry. */
const forgetAuthParams = () => window.history.replaceState(window.history.state, '', window.location.pathname);

function createSession(config: ClientConfig, userManager: UserManager) {
  const queryClient = createQueryClient();
  configureApiAuth({
    getAccessToken: createTokenSource(userManager),
    // The API no longer accepts the token (expired, revoked): forget it, the guard then shows 'Willkommen'.
    onUnauthorized: () => void userManager.removeUser(),
  });
  // Nothing of one user's data survives into the next session.
  userManager.events.addUserUnloaded(() => queryClient.clear());
  return { queryClient, router: createAppRouter(config.callbackPath) };
}

export function App({ config, userManager }: { config: ClientConfig; userManager: UserManager }) {
  const [{ queryClient, router }] = useState(() => createSession(config, userManager));
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <AuthProvider userManager={userManager} onSigninCallback={forgetAuthParams}>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
