import { createElement } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// Records whether (and with what) the dialog's own module was loaded and rendered.
const loaded = vi.hoisted(() => ({ modules: 0, openedProps: [] as boolean[] }));
vi.mock('./CookieConsentModal', () => {
  loaded.modules++;
  return {
    CookieConsentModal: ({ opened }: { opened: boolean }) => {
      loaded.openedProps.push(opened);
      return createElement('div', { role: 'dialog', 'aria-label': 'Cookie-Einstellungen' });
    },
  };
});

const storage = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    key: (i: number) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
};

let CookieConsentDialog: typeof import('./CookieConsentDialog').CookieConsentDialog;
let consentStore: typeof import('./consent-store').consentStore;
let renderToHtml: typeof import('../render-for-test').renderToHtml;

beforeAll(async () => {
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('sessionStorage', storage());
  ({ CookieConsentDialog } = await import('./CookieConsentDialog'));
  ({ consentStore } = await import('./consent-store'));
  ({ renderToHtml } = await import('../render-for-test'));
});

afterEach(() => {
  loaded.openedProps.length = 0;
});

describe('the cookie consent dialog, loaded when it opens', () => {
  it('with the consent given: renders nothing and never loads the dialog (Modal, checkboxes)', async () => {
    consentStore.decide({ preferences: false, marketing: false });
    expect(await renderToHtml(createElement(CookieConsentDialog))).toBe('');
    expect(loaded.modules).toBe(0);
  });

  it('on a page that explains cookies it stays closed before the answer, without loading', async () => {
    consentStore.withdraw();
    expect(await renderToHtml(createElement(CookieConsentDialog), '/datenschutz')).toBe('');
    expect(loaded.modules).toBe(0);
  });

  it('without an answer: loads the dialog and shows it open at once', async () => {
    consentStore.withdraw();
    const html = await renderToHtml(createElement(CookieConsentDialog));
    expect(html).toContain('role="dialog"');
    expect(loaded.modules).toBe(1);
    expect(loaded.openedProps).toEqual([true]);
  });

  it('opened again from the footer after the answer: shown open', async () => {
    consentStore.decide({ preferences: true, marketing: false });
    consentStore.openSettings();
    expect(await renderToHtml(createElement(CookieConsentDialog))).toContain('role="dialog"');
    expect(loaded.openedProps).toEqual([true]);
  });
});
