import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { useOpenedOnce } from '../use-opened-once';
import { useConsent } from './use-consent';

/** Pages that explain cookies and data protection must stay readable before the user answers. */
const PAGES_WITHOUT_DIALOG = ['/impressum', '/datenschutz', '/cookie-declaration'];

// The dialog (Modal, Checkbox, their focus trap and portal) is loaded the first time it opens: with the consent
// already given, a page neither downloads nor renders it.
const CookieConsentModal = lazy(() => import('./CookieConsentModal').then((m) => ({ default: m.CookieConsentModal })));

/** Asks for preference and marketing consent until answered; reopened from the footer or the cookie page. */
export function CookieConsentDialog() {
  const { pathname } = useLocation();
  const { decided, settingsOpen } = useConsent();
  const opened = settingsOpen || (!decided && !PAGES_WITHOUT_DIALOG.includes(pathname));
  // Once opened it stays mounted, so that closing it plays the Modal's transition as before.
  if (!useOpenedOnce(opened)) return null;
  return (
    <Suspense fallback={null}>
      <CookieConsentModal opened={opened} />
    </Suspense>
  );
}
