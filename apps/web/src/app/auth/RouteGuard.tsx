import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../../api/auth';
import { useUserProfile } from '../../api/session';
import { AccessDeniedPage } from '../../features/errors/AccessDeniedPage';
import { WelcomePage } from '../../features/welcome/WelcomePage';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { toast } from '../../ui/toast';
import { messages, type Role } from '@shk/contracts';
import { firstAllowedRouteKey, mayOpen, type RouteAccess } from '../access';
import { pathOf } from '../routes';

/**
 * Applies the role → allowed-routes table: public pages for everyone, the 'Willkommen' screen for the
 * unauthenticated, the access-denied page when the profile cannot be loaded, and a redirect to the
 * role's first allowed route for everything else the role may not open.
 */
export function RouteGuard({
  access,
  deniedMessages,
  children,
}: {
  access: RouteAccess;
  deniedMessages?: Partial<Record<Role, string>>;
  children: ReactNode;
}) {
  const auth = useAuth();
  const profile = useUserProfile();
  const location = useLocation();

  if (access === 'public') return children;
  if (auth.isLoading && !auth.isAuthenticated) return <FullPageLoader />;
  if (!auth.isAuthenticated) {
    return (
      <>
        <GuardMark decision="login" access={access} />
        <WelcomePage returnTo={location.pathname + location.search} />
      </>
    );
  }
  if (profile.isPending) return <FullPageLoader />;
  if (profile.isError) return <AccessDeniedPage error={profile.error} />;

  const { role } = profile.data;
  if (!mayOpen(role, access)) {
    return (
      <>
        <GuardMark decision="denied" access={access} />
        <DeniedToast message={deniedMessages?.[role] ?? messages.routeNotAllowed} />
        <Navigate to={pathOf(firstAllowedRouteKey(role))} replace />
      </>
    );
  }
  return (
    <>
      <GuardMark decision="allowed" access={access} />
      {children}
    </>
  );
}

/**
 * Records the guard's decision as a User Timing mark ('route:allowed:profile', 'route:denied:admin',
 * 'route:login:cart'), so browser tests can tell the guard's redirect from a page's own one.
 */
function GuardMark({ decision, access }: { decision: 'allowed' | 'denied' | 'login'; access: RouteAccess }) {
  useEffect(() => {
    performance.mark(`route:${decision}:${access}`);
  }, [decision, access]);
  return null;
}

/** When the last denial was told: the redirect re-renders the guard, which must not repeat the toast. */
let lastDenial = { message: '', at: 0 };
const REPEAT_WINDOW_MS = 2_000;

/** Tells a role why the route did not open (e.g. a seller on /add-to-cart), once. */
function DeniedToast({ message }: { message: string }) {
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    const now = Date.now();
    if (lastDenial.message === message && now - lastDenial.at < REPEAT_WINDOW_MS) return;
    lastDenial = { message, at: now };
    toast.warning(message);
  }, [message]);
  return null;
}
