export { useConsent } from './use-consent';
export { CONSENT_STORAGE_KEY, PREFERENCE_STORAGE_PREFIX } from './consent-store';
