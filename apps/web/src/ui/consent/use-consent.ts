import { useSyncExternalStore } from 'react';
import { consentStore, type ConsentCategory } from './consent-store';

/**
 * Consent state for features, e.g. `const { hasConsent } = useConsent(); if (hasConsent('preferences')) …`.
 * Re-renders when the user decides or withdraws.
 */
export function useConsent() {
  const { decision, settingsOpen } = useSyncExternalStore(
    consentStore.subscribe,
    consentStore.getSnapshot,
    consentStore.getSnapshot,
  );
  return {
    decision,
    decided: decision !== null,
    settingsOpen,
    hasConsent: (category: ConsentCategory) => decision?.[category] === true,
    decide: consentStore.decide,
    withdraw: consentStore.withdraw,
    openSettings: consentStore.openSettings,
  };
}
