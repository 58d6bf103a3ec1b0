import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Role } from '@shk/contracts';
import { theme } from '../app/theme';
import { AuthProvider } from '../api/auth';
import type { AuthSession, AuthState } from '../api/auth-session';
import { queryKeys } from '../api/query-keys';
import type { UserProfile } from '../api/types';
import { Toaster } from '../ui/toast';

/** A page load's sign-in state that never changes: signed in when a profile is given. */
function fixedSession(signedIn: boolean): AuthSession {
  const state: AuthState = { isLoading: false, isAuthenticated: signedIn };
  const unused = () => Promise.reject(new Error('Im Komponententest gibt es keinen Anmeldedienst.'));
  return {
    subscribe: () => () => undefined,
    getState: () => state,
    signinRedirect: unused,
    signoutRedirect: unused,
    removeUser: unused,
  } as unknown as AuthSession;
}

/** A signed-in user's profile (a buyer of partner 100001 unless changed). */
export const testProfile = (changes: Partial<UserProfile> = {}): UserProfile => ({
  id: 'u-test',
  firstName: 'Erika',
  lastName: 'Muster',
  role: Role.Buyer,
  email: 'einkauf@example.com',
  currentBpNumber: '100001',
  currentBpName: 'Sanitär Müller',
  idsContextId: null,
  availableBusinessPartners: [{ number: '100001', name: 'Sanitär Müller' }],
  ...changes,
});

interface RenderOptions {
  path?: string;
  /** Shows the app's toasts. */
  toasts?: boolean;
  /** Signed in with this profile (already loaded); signed out without. */
  profile?: UserProfile;
}

/**
 * Renders `ui` as the app does (Mantine with the portal's theme, the sign-in state, React Query without retries, a
 * router at `path`, with `toasts` the app's toasts) with a user to act on it.
 */
export function renderWithApp(ui: ReactElement, { path = '/', toasts = false, profile }: RenderOptions = {}) {
  // No pause between keystrokes: typing a field costs one task instead of one timer per character.
  const user = userEvent.setup({ delay: null });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (profile) queryClient.setQueryData(queryKeys.userProfile, profile);
  const session = fixedSession(profile !== undefined);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <AuthProvider session={session}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>
            {children}
            {toasts && <Toaster />}
          </MemoryRouter>
        </QueryClientProvider>
      </AuthProvider>
    </MantineProvider>
  );
  return { user, queryClient, ...render(ui, { wrapper }) };
}

/** The input labelled `name` exactly, also when Mantine marks it required with an asterisk ('E-Mail-Adresse *'). */
export const fieldLabel = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
