import { useLocation } from 'react-router';
import { useOpenedOnce } from '../use-opened-once';
import { CookieConsentModal } from './CookieConsentModal';
import { useConsent } from './use-consent';

/** Pages that explain cookies and data protection must stay readable before the user answers. */
const PAGES_WITHOUT_DIALOG = ['/impressum', '/datenschutz', '/cookie-declaration'];

/**
 * Asks for preference and marketing consent until answered; reopened from the footer or the cookie page. Part of the
 * shell's code (not loaded on demand): a first visitor's page paints with the notice.
 */
export function CookieConsentDialog() {
  const { pathname } = useLocation();
  const { decided, settingsOpen } = useConsent();
  const opened = settingsOpen || (!decided && !PAGES_WITHOUT_DIALOG.includes(pathname));
  // Once opened it stays mounted (closed), so that opening it again needs no new render of its parts.
  if (!useOpenedOnce(opened)) return null;
  return <CookieConsentModal opened={opened} />;
}
