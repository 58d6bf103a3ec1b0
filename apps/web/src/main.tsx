import './app/shell-styles';
import './ui/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createSession } from './app/App';
import { preloadHeaderOf } from './app/layout/AppLayout';
import { StartupError } from './app/StartupError';
import { prefetchPageData, preloadPageOf } from './app/routes';
import { userProfileQuery } from './api/session';
import {
  completeSilentRenew,
  createUserManager,
  isSilentRenewFrame,
  loadClientConfig,
  restoreSession,
} from './app/auth/user-manager';

async function start() {
  if (isSilentRenewFrame()) {
    await completeSilentRenew();
    return;
  }
  preloadPageOf(window.location.pathname);
  const root = createRoot(document.getElementById('root')!);
  try {
    // Already on its way: index.html preloads /v1/ClientConfig while this script downloads.
    const config = await loadClientConfig();
    const userManager = createUserManager(config);
    // A page opened after the token expired, or a new tab: renew or sign in through the provider session
    // before the first render, so a signed-in user is not shown 'Willkommen' (the timer-based renewal only
    // runs while a page is open).
    await restoreSession(userManager, config.callbackPath);
    const session = createSession(config, userManager);
    // The profile (role, partner: what every guarded page waits for) is requested now, in parallel with React's
    // first render, instead of after the AuthProvider has read the stored user in an effect.
    // The page's first data requests follow as soon as the profile is there (the route table's `prefetch`).
    if (await userManager.getUser()) {
      const profile = session.queryClient.fetchQuery(userProfileQuery);
      void prefetchPageData(window.location, session.queryClient, profile);
      profile.then(
        (user) => preloadHeaderOf(user, session.queryClient),
        () => undefined,
      );
    }
    // Not inside startTransition: a time-sliced first render made the IDS pre-cart page wait forever on its loader
    // when the route changed (redirect to /ids-warenkorb) while that first render was still suspended (e2e/ids.spec.ts).
    root.render(
      <StrictMode>
        <App session={session} userManager={userManager} />
      </StrictMode>,
    );
  } catch (error) {
    console.error('Start failed', error);
    root.render(<StartupError />);
  }
}

void start();
