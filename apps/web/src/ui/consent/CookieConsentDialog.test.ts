import { createElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';

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

describe('the cookie consent dialog, rendered with the page', () => {
  it('with the consent given: renders nothing', async () => {
    consentStore.decide({ preferences: false, marketing: false });
    expect(await renderToHtml(createElement(CookieConsentDialog))).toBe('');
  });

  it('on a page that explains cookies it stays closed before the answer', async () => {
    consentStore.withdraw();
    expect(await renderToHtml(createElement(CookieConsentDialog), '/datenschutz')).toBe('');
  });

  it('without an answer: the notice is in the first render (no chunk loaded on demand)', async () => {
    consentStore.withdraw();
    const html = await renderToHtml(createElement(CookieConsentDialog));
    expect(html).toContain('<dialog');
    expect(html).toContain('Cookie-Einstellungen');
    expect(html).toContain('Wir verwenden Cookies');
  });

  it('opened again from the footer after the answer: rendered with the stored choice', async () => {
    consentStore.decide({ preferences: true, marketing: false });
    consentStore.openSettings();
    const html = await renderToHtml(createElement(CookieConsentDialog));
    expect(html).toContain('<dialog');
    expect(html).toContain('Auswahl speichern');
  });
});
