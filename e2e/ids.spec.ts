import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage, firstOfferOfSupplier } from './support/relations';

/**
 * IDS-Connect with the browser as the craftsman's program would drive it: a local page posts
 * a wks form with a 2.5 cart to the portal, the user matches a position on /ids-warenkorb, moves the
 * cart and returns it – once as it is, once ordered – and a local hook server receives the cart, which
 * must validate against warenkorb-empfangen-2.5.xsd. Works as einkauf2 (partner 100003) so that the
 * default cart of einkauf@ that other specs use stays untouched.
 */
test.use({ storageState: sessionFile('buyer2') });

const xsd = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/api/test/fixtures/ids-xsd/warenkorb-empfangen-2.5.xsd',
);
// Fixed: tests of this file may run in parallel workers and must not overwrite each other's login.
const login = { kndnr: '100003', name_kunde: 'becker-e2e', pw_kunde: 'ids-geheim-1' };

interface Received {
  url: string;
  warenkorb: string;
}

/** The craftsman program: its start page (posting the form) and the hook URL that receives the cart. */
async function craftsmanProgram(portal: string, cart: () => string, extra: Record<string, string> = {}) {
  const received: Received[] = [];
  const server = http.createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/start') {
      const { port } = server.address() as AddressInfo;
      const fields: Record<string, string> = {
        action: 'WKS',
        version: '2.5',
        ...login,
        hookurl: `http://127.0.0.1:${port}/hook?session=e2e&x=1`,
        target: '_top',
        ...extra,
      };
      const inputs = Object.entries(fields)
        .map(
          ([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`,
        )
        .join('');
      const xml = cart().replace(/&/g, '&amp;').replace(/</g, '&lt;');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><meta charset="utf-8"><title>Handwerkersoftware</title>
         <form id="f" method="post" enctype="multipart/form-data" accept-charset="UTF-8" action="${portal}/ids">${inputs}
         <textarea name="warenkorb">${xml}</textarea></form><script>document.getElementById('f').submit()</script>`,
      );
      return;
    }
    if (req.method === 'POST' && req.url?.startsWith('/hook')) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = await new Request('http://hook.local/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData();
      received.push({ url: req.url, warenkorb: String(form.get('warenkorb')) });
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><meta charset="utf-8"><title>Empfangen</title><h1>Warenkorb empfangen</h1>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { start: `http://127.0.0.1:${port}/start`, received, close: () => server.close() };
}

function validate(xml: string) {
  execFileSync('xmllint', ['--noout', '--schema', xsd, '-'], { input: xml, stdio: 'pipe' });
}

async function idsContextOf(page: Page): Promise<string> {
  const profile = await apiFromPage<{ idsContextId: string | null }>(page, 'GET', '/v1/UserProfile');
  expect(profile.data.idsContextId).toBeTruthy();
  return profile.data.idsContextId!;
}

test('a craftsman program sends a 2.5 cart, the user matches and returns it with and without order', async ({
  page,
  baseURL,
}) => {
  // The buyer sets the program's login on 'Mein Profil'.
  await page.goto('/profil');
  const card = page.getByRole('region', { name: 'IDS-Connect' });
  await card.getByRole('textbox', { name: /^Benutzername/ }).fill(login.name_kunde);
  await card.locator('input[type="password"]').fill(login.pw_kunde);
  await card.getByRole('button', { name: /Zugangsdaten/ }).click();
  await expect(page.getByText('IDS-Zugangsdaten gespeichert.')).toBeVisible();

  const offer = await firstOfferOfSupplier(page, '200001');
  const articleNumber = offer.productInstanceId.split('~')[1];
  const cart = () => `<?xml version="1.0" encoding="UTF-8"?>
<Warenkorb xmlns="http://www.itek.de/Shop-Anbindung/Warenkorb/">
  <WarenkorbInfo><Date>2026-11-20</Date><Time>08:00:00</Time><Version>2.5</Version></WarenkorbInfo>
  <Order>
    <OrderInfo><InquiryNo>E2E-1</InquiryNo><ModeOfShipment>Lieferung</ModeOfShipment><Kommission>Baustelle Nord</Kommission></OrderInfo>
    <OrderItem><RefItems><Customer>7</Customer></RefItems><ArtNo>${articleNumber}</ArtNo><Qty>0.001</Qty><QU>PCE</QU><Kurztext>Position aus der Software</Kurztext></OrderItem>
    <OrderItem><RefItems><Customer>8</Customer></RefItems><ArtNo>GIBT-ES-NICHT</ArtNo><Qty>1</Qty><QU>PCE</QU><Kurztext>Unbekannter Artikel</Kurztext></OrderItem>
  </Order>
</Warenkorb>`;
  const program = await craftsmanProgram(baseURL!, cart);
  let successSeen = () => {};
  await page.exposeFunction('idsSuccessSeen', () => successSeen());
  try {
    for (const withOrder of [false, true]) {
      await page.goto(program.start);
      await page.waitForURL(/\/ids-warenkorb$/);
      const contextId = await idsContextOf(page);
      await expect(page.getByTestId('ids-step')).toHaveText('Schritt 1 von 2: Artikel zuordnen');
      // IDS context rules of the shell: one cart only, no partner switch.
      await expect(page.locator('[aria-disabled="true"]', { hasText: 'Meine Warenkörbe' }).first()).toBeVisible();
      // While the IDS cart has unmoved items, the cart page sends the user back to the pre-cart.
      await page.goto('/warenkorb');
      await page.waitForURL(/\/ids-warenkorb$/);
      await expect(page.getByTestId('ids-step')).toBeVisible();
      // The quantity is below the minimum: step 2 stays disabled until the user fixes it.
      const group = page.getByTestId('ids-group-QuantityNotMatched');
      await expect(group).toBeVisible();
      await expect(page.getByTestId('ids-group-NotMatched')).toContainText('GIBT-ES-NICHT');
      await expect(page.getByTestId('ids-next')).toBeDisabled();
      const idsCart = await apiFromPage<{ items: { supplierRelations: { minOrderQuantity: number }[] }[] }>(
        page,
        'GET',
        `/v1/IdsCarts/${contextId}`,
      );
      const min = idsCart.data.items[0].supplierRelations[0].minOrderQuantity;
      await group.getByLabel('Menge').fill(String(min * 2));
      await group.getByTestId('ids-apply').click();
      await expect(page.getByTestId('ids-group-Matched')).toContainText(articleNumber);
      await page.getByTestId('ids-next').click();
      await page.waitForURL(/\/warenkorb/);
      await expect(page.getByTestId('ids-return')).toBeVisible();

      const before = program.received.length;
      // The return page is held back until the success message has been seen (the SPA leaves right after it).
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/ids/return/**', async (route) => {
        await held;
        await route.continue();
      });
      // A locator would wait for the held navigation to finish; the page itself reports the message instead.
      let seen = () => {};
      const successShown = new Promise<void>((resolve) => (seen = resolve));
      successSeen = seen;
      await page.evaluate(() => {
        const report = (window as unknown as { idsSuccessSeen: () => void }).idsSuccessSeen;
        const check = () => document.body.innerText.includes('Aktion erfolgreich.') && (report(), true);
        if (!check())
          new MutationObserver((_m, observer) => check() && observer.disconnect()).observe(document.body, {
            childList: true,
            subtree: true,
            characterData: true,
          });
      });
      await page.getByTestId(withOrder ? 'ids-complete-order' : 'ids-complete').click();
      await successShown;
      release();
      await expect(page.getByRole('heading', { name: 'Warenkorb empfangen' })).toBeVisible();
      await page.unroute('**/ids/return/**');
      expect(program.received).toHaveLength(before + 1);
      const { url, warenkorb } = program.received[before];
      expect(url).toBe('/hook?session=e2e&x=1');
      validate(warenkorb);
      expect(warenkorb).toContain(`<ArtNo>${articleNumber}</ArtNo>`);
      expect(warenkorb).toContain('<Customer>7</Customer>');
      expect(warenkorb).toMatch(/<ArtNo>GIBT-ES-NICHT<\/ArtNo>[\s\S]*<Fehlercode>1<\/Fehlercode>/);
      expect(warenkorb).toContain('<Kommission>Baustelle Nord</Kommission>');
      if (withOrder) {
        expect(warenkorb).toContain('<RueckgabeKZ>Warenkorbrückgabe mit Bestellung</RueckgabeKZ>');
        expect(warenkorb).toMatch(/<OrderConfNo>KB-\d{4}-\d+<\/OrderConfNo>/);
      } else {
        expect(warenkorb).toContain('<RueckgabeKZ>Warenkorbrückgabe</RueckgabeKZ>');
      }
      // The IDS session ended with the return.
      await page.goto('/');
      const stored = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('oidc.user:')));
      expect(stored).toEqual([]);
    }
  } finally {
    program.close();
  }
});

test('a replayed IDS code is refused on the landing page', async ({ page }) => {
  await page.goto('/ids?code=nicht-gueltig&action=wks');
  await expect(page.getByTestId('ids-code-error')).toBeVisible();
});

test('action as: the program opens the search, the user sends one product back', async ({ page, baseURL }) => {
  await page.goto('/profil');
  // The stored session's token may have expired: the card appears once the SPA holds a renewed one.
  await expect(page.getByRole('region', { name: 'IDS-Connect' })).toBeVisible();
  const saved = await apiFromPage(page, 'PUT', '/v1/IdsCredentials', {
    loginName: login.name_kunde,
    password: login.pw_kunde,
  });
  expect(saved.status).toBe(200);
  const offer = await firstOfferOfSupplier(page, '200001');
  const program = await craftsmanProgram(baseURL!, () => '', { action: 'as', searchterm: 'Ventil' });
  try {
    await page.goto(program.start);
    await page.waitForURL(/\/suche\?term=Ventil/);
    await idsContextOf(page);
    await page.goto(`/produkt?${new URLSearchParams({ id: offer.productId, articleNumber: offer.productInstanceId })}`);
    const panel = page.getByTestId('ids-send');
    await expect(panel).toBeVisible();
    // Above any minimum order quantity of the demo catalogue.
    await panel.getByLabel('Menge').fill('100');
    await panel.getByRole('button', { name: 'An Software senden' }).click();
    await expect(page.getByRole('heading', { name: 'Warenkorb empfangen' })).toBeVisible();
    const { warenkorb } = program.received.at(-1)!;
    validate(warenkorb);
    expect(warenkorb).toContain(`<ArtNo>${offer.productInstanceId.split('~')[1]}</ArtNo>`);
    expect(warenkorb).toContain('<Qty>100.00</Qty>');
  } finally {
    program.close();
  }
});

test('action adl: the deep link opens the offer and the product search is disabled', async ({ page, baseURL }) => {
  await page.goto('/profil');
  // The stored session's token may have expired: the card appears once the SPA holds a renewed one.
  await expect(page.getByRole('region', { name: 'IDS-Connect' })).toBeVisible();
  const saved = await apiFromPage(page, 'PUT', '/v1/IdsCredentials', {
    loginName: login.name_kunde,
    password: login.pw_kunde,
  });
  expect(saved.status).toBe(200);
  const offer = await firstOfferOfSupplier(page, '200001');
  const program = await craftsmanProgram(baseURL!, () => '', {
    action: 'ADL',
    ghnummer: offer.productInstanceId.split('~')[1],
  });
  try {
    await page.goto(program.start);
    await page.waitForURL((url) => url.pathname === '/produkt');
    expect(new URL(page.url()).searchParams.get('id')).toBe(offer.productId);
    await idsContextOf(page);
    await page.goto('/suche?term=Ventil');
    await page.waitForURL((url) => url.pathname === '/');
    await expect(
      page.getByText('Die Produktsuche ist bei einem Artikel-Deeplink (IDS) nicht verfügbar.'),
    ).toBeVisible();
  } finally {
    program.close();
  }
});

test.describe('IDS context of a buyer with two business partners', () => {
  test.use({ storageState: sessionFile('buyer') });

  test('the partner dropdown is disabled while the IDS session lasts', async ({ page, baseURL }) => {
    // Outside IDS einkauf@ (100001 and 100002) may switch.
    await page.goto('/');
    await expect(page.getByTestId('partner-switch')).toBeEnabled();
    // The demo login of the README: kndnr 100001, name_kunde einkauf@example.com, pw_kunde demo.
    const program = await craftsmanProgram(baseURL!, () => '', {
      action: 'wke',
      kndnr: '100001',
      name_kunde: 'einkauf@example.com',
      pw_kunde: 'demo',
    });
    try {
      await page.goto(program.start);
      await page.waitForURL((url) => url.pathname === '/');
      await idsContextOf(page);
      await expect(page.getByTestId('current-partner')).toBeVisible();
      await expect(page.getByTestId('partner-switch')).toBeDisabled();
    } finally {
      program.close();
    }
  });

  test('Abmelden ends the IDS session on the server (its token is refused)', async ({ page, baseURL }) => {
    const program = await craftsmanProgram(baseURL!, () => '', {
      action: 'wke',
      kndnr: '100001',
      name_kunde: 'einkauf@example.com',
      pw_kunde: 'demo',
    });
    try {
      await page.goto(program.start);
      await page.waitForURL((url) => url.pathname === '/');
      await idsContextOf(page);
      const token = await page.evaluate(() => {
        const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
        return key ? (JSON.parse(sessionStorage.getItem(key)!) as { access_token: string }).access_token : null;
      });
      expect(token).toBeTruthy();
      const logout = page.waitForResponse((r) => r.url().endsWith('/v1/Ids/Logout'));
      await page.getByText('Abmelden', { exact: true }).first().click();
      expect((await logout).status()).toBe(204);
      await expect(page.getByRole('heading', { name: 'Willkommen' })).toBeVisible();
      // The IDS token is refused from now on (not only forgotten by the tab).
      const status = await page.evaluate(
        async (bearer) => (await fetch('/v1/UserProfile', { headers: { authorization: `Bearer ${bearer}` } })).status,
        token,
      );
      expect(status).toBe(401);
    } finally {
      program.close();
    }
  });
});
