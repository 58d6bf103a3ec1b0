import './app/shell-styles';
import './ui/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { StartupError } from './app/StartupError';
import { preloadPageOf } from './app/routes';
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
    const config = await loadClientConfig();
    const userManager = createUserManager(config);
    // A page opened after the token expired, or a new tab: renew or sign in through the provider session
    // before the first render, so a signed-in user is not shown 'Willkommen' (the timer-based renewal only
    // runs while a page is open).
    await restoreSession(userManager, config.callbackPath);
    root.render(
      <StrictMode>
        <App config={config} userManager={userManager} />
      </StrictMode>,
    );
  } catch (error) {
    console.error('Start failed', error);
    root.render(<StartupError />);
  }
}

void start();
