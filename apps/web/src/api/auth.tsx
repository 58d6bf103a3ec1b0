import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthSession, AuthState } from './auth-session';

const AuthContext = createContext<AuthSession | null>(null);

/** Gives the page load's sign-in state (AuthSession) to useAuth. */
export function AuthProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  return <AuthContext.Provider value={session}>{children}</AuthContext.Provider>;
}

export interface Auth extends AuthState {
  signinRedirect: AuthSession['signinRedirect'];
  signoutRedirect: AuthSession['signoutRedirect'];
  removeUser: AuthSession['removeUser'];
}

/** The sign-in state (isLoading, isAuthenticated, user, error) and the ways to change it; re-renders on change. */
export function useAuth(): Auth {
  const session = useContext(AuthContext);
  if (!session) throw new Error('useAuth outside <AuthProvider>');
  const state = useSyncExternalStore(session.subscribe, session.getState);
  return useMemo(
    () => ({
      ...state,
      signinRedirect: session.signinRedirect,
      signoutRedirect: session.signoutRedirect,
      removeUser: session.removeUser,
    }),
    [session, state],
  );
}
