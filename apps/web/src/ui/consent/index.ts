export { useConsent } from './use-consent';
export {
  consentStore,
  CONSENT_STORAGE_KEY,
  PREFERENCE_STORAGE_PREFIX,
  type ConsentCategory,
  type ConsentDecision,
} from './consent-store';
export { CookieConsentDialog } from './CookieConsentDialog';
