import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from 'react-oidc-context';
import { useUserProfile } from '../../api/session';
import { AccessDeniedPage } from '../../features/errors/AccessDeniedPage';
import { WelcomePage } from '../../features/welcome/WelcomePage';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { firstAllowedRouteKey, mayOpen, type RouteAccess } from '../access';
import { pathOf } from '../routes';

/**
 * Applies the role → allowed-routes table: public pages for everyone, the 'Willkommen' screen for the
 * unauthenticated, the access-denied page when the profile cannot be loaded, and a redirect to the
 * role's first allowed route for everything else the role may not open.
 */
export function RouteGuard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const auth = useAuth();
  const profile = useUserProfile();
  const location = useLocation();

  if (access === 'public') return children;
  if (auth.isLoading && !auth.isAuthenticated) return <FullPageLoader />;
  if (!auth.isAuthenticated) return <WelcomePage returnTo={location.pathname + location.search} />;
  if (profile.isPending) return <FullPageLoader />;
  if (profile.isError) return <AccessDeniedPage error={profile.error} />;

  const { role } = profile.data;
  if (!mayOpen(role, access)) return <Navigate to={pathOf(firstAllowedRouteKey(role))} replace />;
  return children;
}
