/**
 * Cookie consent: necessary storage always, 'preferences' and 'marketing' only after the user agreed.
 * The decision lives in localStorage so it survives sign-out and new tabs.
 */
export type ConsentCategory = 'preferences' | 'marketing';

export interface ConsentDecision {
  preferences: boolean;
  marketing: boolean;
  /** ISO timestamp of the answer. */
  decidedAt: string;
}

export const CONSENT_STORAGE_KEY = 'shk.cookieConsent';

/**
 * Session-storage keys starting with this prefix hold preference data (e.g. recently viewed products);
 * they are removed as soon as preference consent is withdrawn.
 */
export const PREFERENCE_STORAGE_PREFIX = 'shk.pref.';

type Listener = () => void;

function readDecision(): ConsentDecision | null {
  try {
    const raw = localStorage.getItem(CONSENT_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<ConsentDecision>;
    if (typeof parsed.preferences !== 'boolean' || typeof parsed.marketing !== 'boolean') return null;
    return { preferences: parsed.preferences, marketing: parsed.marketing, decidedAt: String(parsed.decidedAt ?? '') };
  } catch {
    return null;
  }
}

function removePreferenceData() {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFERENCE_STORAGE_PREFIX)) sessionStorage.removeItem(key);
  }
}

interface ConsentSnapshot {
  decision: ConsentDecision | null;
  /** The dialog was opened on purpose (footer link, cookie declaration). */
  settingsOpen: boolean;
}

function createConsentStore() {
  let snapshot: ConsentSnapshot = { decision: readDecision(), settingsOpen: false };
  const listeners = new Set<Listener>();
  const set = (next: Partial<ConsentSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    listeners.forEach((listener) => listener());
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    has: (category: ConsentCategory) => snapshot.decision?.[category] === true,
    decide(choice: { preferences: boolean; marketing: boolean }) {
      const decision: ConsentDecision = { ...choice, decidedAt: new Date().toISOString() };
      localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify(decision));
      if (!decision.preferences) removePreferenceData();
      set({ decision, settingsOpen: false });
    },
    /** Withdraws every optional consent; the question is asked again. */
    withdraw() {
      localStorage.removeItem(CONSENT_STORAGE_KEY);
      removePreferenceData();
      set({ decision: null, settingsOpen: false });
    },
    openSettings: () => set({ settingsOpen: true }),
  };
}

export const consentStore = createConsentStore();
