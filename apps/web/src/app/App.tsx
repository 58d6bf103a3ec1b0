import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../api/auth';
import type { AuthSession } from '../api/auth-session';
import { configureApiAuth } from '../api/client';
import { createQueryClient } from '../api/query-client';
import { AppRoutes } from './router';
import { cssVariablesResolver, theme } from './theme';

export interface Session {
  queryClient: QueryClient;
  auth: AuthSession;
}

/** The query cache and the API's token source of one page load (created once, before the first render). */
export function createSession(auth: AuthSession): Session {
  const queryClient = createQueryClient();
  configureApiAuth({
    getAccessToken: auth.getAccessToken,
    // The API no longer accepts the token (expired, revoked): forget it, the guard then shows 'Willkommen'.
    onUnauthorized: () => void auth.removeUser(),
  });
  // Nothing of one user's data survives into the next session.
  auth.onUserUnloaded(() => queryClient.clear());
  return { queryClient, auth };
}

export function App({ session: { queryClient, auth } }: { session: Session }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <AuthProvider session={auth}>
          <BrowserRouter>
            <AppRoutes callbackPath={auth.callbackPath} />
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
