import './app/shell-styles';
import './ui/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSession } from './app/App';
import { preloadHeaderOf } from './app/layout/AppLayout';
import { StartupError } from './app/StartupError';
import { prefetchPageData, preloadPageOf } from './app/routes';
import { AuthSession, isSilentRenewFrame, loadClientConfig } from './api/auth-session';
import { userProfileQuery } from './api/session';
import { warmUpGermanFormats } from './lib/intl-warm-up';
import { whenIdle } from './ui/when-idle';

/*
 * oidc-client-ts is loaded only when the identity provider has to be asked (sign-in, its callback, renewal,
 * sign-out; AuthSession decides): never statically from here (checked by entry-imports.test.ts).
 */
const loadOidc = () => import('./api/user-manager');

async function start() {
  if (isSilentRenewFrame()) {
    await (await loadOidc()).completeSilentRenew();
    return;
  }
  const root = createRoot(document.getElementById('root')!);
  try {
    // Already on its way: index.html preloads /v1/ClientConfig while this script downloads.
    const config = await loadClientConfig();
    const auth = new AuthSession({
      config,
      loadUserManager: async () => (await loadOidc()).createUserManager(config),
    });
    // With a valid stored token the page's code is requested right after the profile (below): the profile gates the
    // page's data, and requested first it gets one of the browser's six connections before the page's chunks do
    // (behind them it started ~450 ms later in Lighthouse's simulation). Otherwise the code loads while
    // the session is restored; a first visitor (no session to restore) gets only a public page's code, as any
    // other page shows them 'Willkommen'.
    const signedIn = auth.getState().isAuthenticated;
    if (!signedIn) preloadPageOf(window.location.pathname, { publicOnly: !auth.maySignIn() });
    // A page opened after the token expired, or a new tab: renew or sign in through the provider session
    // before the first render, so a signed-in user is not shown 'Willkommen' (the timer-based renewal only
    // runs while a page is open). A stored, unexpired token needs nothing: the page renders at once.
    await auth.restore();
    auth.start();
    const session = createSession(auth);
    // The profile (role, partner: what every guarded page waits for) is requested now, in parallel with React's
    // first render. The page's first data requests follow as soon as the profile is there (the route table's
    // `prefetch`).
    if (auth.storedUser()) {
      const profile = session.queryClient.fetchQuery(userProfileQuery);
      void prefetchPageData(window.location, session.queryClient, profile);
      profile.then(
        (user) => preloadHeaderOf(user, session.queryClient),
        () => undefined,
      );
    }
    // A task later: the profile's fetch() has been called by then (after the token's microtasks).
    if (signedIn) setTimeout(() => preloadPageOf(window.location.pathname), 0);
    whenIdle(warmUpGermanFormats);
    // A transition: React renders the shell in slices of ~5 ms and yields between them, so the first render is no
    // long task (it was 40–60 ms, i.e. 100–160 ms of Lighthouse's blocking time on every page). Under the
    // data router this made the IDS pre-cart redirect wait forever (e2e/ids.spec.ts); with BrowserRouter it passes.
    startTransition(() =>
      root.render(
        <StrictMode>
          <App session={session} />
        </StrictMode>,
      ),
    );
  } catch (error) {
    console.error('Start failed', error);
    root.render(<StartupError />);
  }
}

void start();
