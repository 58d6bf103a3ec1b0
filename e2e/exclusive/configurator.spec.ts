import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { sessionFile } from '../support/demo';
import { apiFromPage, toastWith } from '../support/relations';
import { loginThroughUi, presetCookieConsent } from '../support/session';

/**
 * Kitchen-manufacturer configurator (docs/configurator.md). A local configurator (a Node http
 * server on 127.0.0.1 started here) checks the portal's signed hand-off token and sends the buyer back to
 * /add-to-cart with a return it signs with the demo client secret – as the real manufacturer would.
 * The kitchen manufacturer is configuration: the demo world's Küchenwerk (200008) has no relation with a
 * demo buyer and no seller who could approve one, so the administrator makes AquaTherm (200003), with which
 * einkauf@ (Sanitär Müller, 100001) has an approved and active demo relation, the configurator's
 * manufacturer. The buyer sees the slide, configures, returns and finds the article with the configurator
 * comment in the default cart. Unsigned, tampered and expired returns are refused. The introductory video
 * opens once per session on Küchenwerk product pages; the video-help widget follows the marketing consent.
 *
 * Exclusive: it changes KitchenConfiguratorSupplier and KitchenConfiguratorUrl (restored at the end) and
 * puts an item into einkauf@'s default cart (removed at the end).
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(360_000);

/** The configurator's manufacturer in this spec (see above) and the introductory video's (demo world). */
const KITCHEN = '200003';
const VIDEO_SUPPLIER = '200008';
const DEMO_SECRET = 'demo-kuechenwerk-konfigurator-secret';
const COMMENT = 'Über den Küchenkonfigurator hinzugefügt';
const hmac = (text: string) => createHmac('sha256', DEMO_SECRET).update(text, 'utf8').digest('hex');

/** What the local configurator returns and what it saw. */
const configurator = { articleNumber: '', handOffs: [] as { partner: string; supplier: string }[] };
let server: http.Server;
let configuratorUrl = '';
const originals = new Map<string, { id: number; value: string } | null>();
let videoProduct = { productId: '', productInstanceId: '' };
let addedItemId: number | null = null;

function startConfigurator(): Promise<void> {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const token = url.searchParams.get('token') ?? '';
    const returnUrl = url.searchParams.get('returnUrl') ?? '';
    const [partner, supplier, expires, signature] = token.split('.');
    const valid =
      signature === hmac(['handoff', partner, supplier, expires].join('\n')) &&
      Number(expires) > Date.now() / 1000 &&
      /^https?:\/\//.test(returnUrl);
    if (!valid) {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<h1>Übergabe ungültig</h1>');
      return;
    }
    configurator.handOffs.push({ partner, supplier });
    const back = new URL(returnUrl);
    const signed = {
      articleNumber: configurator.articleNumber,
      supplierId: supplier,
      partner,
      expires: String(Math.floor(Date.now() / 1000) + 600),
    };
    for (const [k, v] of Object.entries(signed)) back.searchParams.set(k, v);
    back.searchParams.set(
      'signature',
      hmac(['return', signed.articleNumber, signed.supplierId, signed.partner, signed.expires].join('\n')),
    );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="de"><title>Küchenkonfigurator</title><h1>Küchenkonfigurator (Test)</h1>` +
        `<p>Geschäftspartner ${partner}</p><a href="${back.toString().replace(/&/g, '&amp;')}">Konfiguration übernehmen</a></html>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      configuratorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/konfigurator`;
      resolve();
    }),
  );
}

/**
 * The stored session of the login project; signs in itself when that did not run (e.g. `--no-deps`, so
 * the spec can run alone: node scripts/e2e.mjs --no-deps e2e/exclusive/configurator.spec.ts).
 */
async function sessionOf(browser: Browser, user: 'buyer' | 'admin'): Promise<string> {
  const file = sessionFile(user);
  if (fs.existsSync(file)) return file;
  const context = await browser.newContext();
  const page = await context.newPage();
  await presetCookieConsent(page);
  await loginThroughUi(page, user === 'buyer' ? 'einkauf@example.com' : 'admin@example.com');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await context.storageState({ path: file });
  await context.close();
  return file;
}

async function pageAs(browser: Browser, user: 'buyer' | 'admin'): Promise<Page> {
  const context = await browser.newContext({ storageState: await sessionOf(browser, user) });
  const page = await context.newPage();
  await page.goto('/');
  // Generous: on a loaded machine the home page's chunk and reads can take long.
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible({ timeout: 90_000 });
  return page;
}

/** A signed return as the configurator builds it, optionally changed afterwards. */
function signedReturnUrl(over: Record<string, string> = {}, expiresIn = 600) {
  const r = {
    articleNumber: configurator.articleNumber,
    supplierId: KITCHEN,
    partner: '100001',
    expires: String(Math.floor(Date.now() / 1000) + expiresIn),
  };
  const signature = hmac(['return', r.articleNumber, r.supplierId, r.partner, r.expires].join('\n'));
  return `/add-to-cart?${new URLSearchParams({ ...r, signature, ...over })}`;
}

async function defaultCartItems(page: Page) {
  const cart = await apiFromPage<{
    id: number;
    items: { id: number; articleNumber: string; comment: string | null }[];
  }>(page, 'GET', '/v1/MultiCarts/Default');
  expect(cart.status).toBe(200);
  return cart.data;
}

/** Sets the only value of a parameter through the administration API and remembers the previous one. */
async function setParameter(admin: Page, key: string, value: string) {
  const values = await apiFromPage<{ id: number; value: string }[]>(admin, 'GET', `/v1/CustomParameter/${key}/values`);
  expect(values.status).toBe(200);
  const current = values.data[0] ?? null;
  if (!originals.has(key)) originals.set(key, current);
  const saved = current
    ? await apiFromPage(admin, 'PUT', `/v1/CustomParameter/${key}/values/${current.id}`, { value })
    : await apiFromPage(admin, 'POST', `/v1/CustomParameter/${key}/values`, { value });
  expect(saved.status, JSON.stringify(saved.data)).toBeLessThan(300);
}

/** An orderable offer of a supplier for the buyer's current partner. */
async function orderableOffer(buyer: Page, supplier: string) {
  const search = await apiFromPage<{
    hits: { productId: string; productOrderableStatus: number; rows: { PRODUCTINSTANCE_ID: string } }[];
  }>(buyer, 'POST', '/v1/Product/Search', {
    page: 1,
    pageSize: 25,
    searchTerm: '',
    filter: [{ columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: supplier }] }],
  });
  expect(search.status).toBe(200);
  const hit = search.data.hits.find((h) => h.rows.PRODUCTINSTANCE_ID.startsWith(`${supplier}~`));
  expect(hit, `ein Angebot von ${supplier}`).toBeTruthy();
  return {
    productId: hit!.productId,
    productInstanceId: hit!.rows.PRODUCTINSTANCE_ID,
    status: hit!.productOrderableStatus,
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  await startConfigurator();
  const admin = await pageAs(browser, 'admin');
  await setParameter(admin, 'KitchenConfiguratorSupplier', KITCHEN);
  await setParameter(admin, 'KitchenConfiguratorUrl', configuratorUrl);
  await admin.context().close();

  const buyer = await pageAs(browser, 'buyer');
  const offer = await orderableOffer(buyer, KITCHEN);
  expect(offer.status, 'bestellbar (freigegebene Beziehung)').toBe(1);
  configurator.articleNumber = offer.productInstanceId.slice(KITCHEN.length + 1);
  videoProduct = await orderableOffer(buyer, VIDEO_SUPPLIER);
  await buyer.context().close();
});

test.afterAll(async ({ browser }) => {
  test.setTimeout(300_000);
  const buyer = await pageAs(browser, 'buyer');
  if (addedItemId) await apiFromPage(buyer, 'DELETE', `/v1/CartItems/${addedItemId}`);
  await buyer.context().close();
  const admin = await pageAs(browser, 'admin');
  for (const [key, original] of originals) {
    if (original) {
      await apiFromPage(admin, 'PUT', `/v1/CustomParameter/${key}/values/${original.id}`, { value: original.value });
    }
  }
  await admin.context().close();
  await new Promise((resolve) => server?.close(resolve));
});

test('the buyer with the relation follows the slide to the configurator and gets the article into the default cart', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'buyer');
  const before = await defaultCartItems(page);
  const slideshow = page.getByTestId('slideshow');
  // Spec order for buyers: non-product promotions, action slides, configurator, default.
  await expect(slideshow.locator('[data-slide]')).toHaveCount(4);
  expect(
    await slideshow.locator('[data-slide]').evaluateAll((s) => s.map((e) => e.getAttribute('data-slide'))),
  ).toEqual(['care-set', 'radiators', 'configurator', 'default']);
  const slide = slideshow.locator('[data-slide="configurator"]');
  await expect(slide).toContainText('Küchen von AquaTherm Armaturen konfigurieren');
  await slideshow.getByRole('tab', { name: 'Folie 3' }).click();
  await slideshow.hover();
  const cta = slide.getByRole('link', { name: 'Zum Küchenkonfigurator' });
  await expect(cta).toHaveAttribute('href', new RegExp(`^${configuratorUrl}\\?token=100001\\.${KITCHEN}\\.`));
  await cta.click();

  await expect(page.getByRole('heading', { name: 'Küchenkonfigurator (Test)' })).toBeVisible();
  await expect(page.getByText('Geschäftspartner 100001')).toBeVisible();
  expect(configurator.handOffs.at(-1)).toEqual({ partner: '100001', supplier: KITCHEN });
  await page.getByRole('link', { name: 'Konfiguration übernehmen' }).click();

  await expect(page).toHaveURL(new RegExp(`/warenkorb/${before.id}$`));
  await expect(toastWith(page, 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.')).toBeVisible();
  await expect(page.getByText(configurator.articleNumber).first()).toBeVisible();
  const after = await defaultCartItems(page);
  const added = after.items.filter((i) => !before.items.some((b) => b.id === i.id));
  expect(added).toHaveLength(1);
  expect(added[0]).toMatchObject({ articleNumber: configurator.articleNumber, comment: COMMENT });
  addedItemId = added[0].id;
  await page.context().close();
});

test('unsigned, tampered and expired returns are refused and add nothing', async ({ browser }) => {
  const page = await pageAs(browser, 'buyer');
  const before = await defaultCartItems(page);
  const cases: [string, string][] = [
    [
      `/add-to-cart?articleNumber=${configurator.articleNumber}&supplierId=${KITCHEN}`,
      'Die Rückgabe des Küchenkonfigurators ist nicht signiert. Es wurde nichts in den Warenkorb gelegt.',
    ],
    [
      signedReturnUrl({ articleNumber: `${configurator.articleNumber}X` }),
      'Die Signatur der Rückgabe des Küchenkonfigurators ist ungültig. Es wurde nichts in den Warenkorb gelegt.',
    ],
    [
      signedReturnUrl({}, -60),
      'Die Rückgabe des Küchenkonfigurators ist abgelaufen. Bitte konfigurieren Sie den Artikel erneut.',
    ],
  ];
  for (const [url, message] of cases) {
    await page.goto(url);
    await expect(toastWith(page, message)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  }
  expect((await defaultCartItems(page)).items.map((i) => i.id)).toEqual(before.items.map((i) => i.id));
  await page.context().close();
});

test('the introductory video opens once per session on Küchenwerk product pages', async ({ browser }) => {
  const page = await pageAs(browser, 'buyer');
  const productUrl = `/produkt?${new URLSearchParams({
    id: videoProduct.productId,
    articleNumber: videoProduct.productInstanceId,
  })}`;
  await page.goto(productUrl);
  await expect(page.getByTestId('product-page')).toBeVisible();
  const video = page.getByRole('dialog', { name: 'Einführungsvideo' });
  await expect(video).toBeVisible();
  await expect(video.locator('iframe')).toHaveAttribute('src', '/video-help/kuechenwerk-einfuehrung.html');
  await video.getByRole('button', { name: 'Schließen' }).click();
  await expect(video).toBeHidden();
  expect(await page.evaluate(() => sessionStorage.getItem('shk.marketingVideoShown'))).toBe('true');

  // Same session: not again.
  await page.reload();
  await expect(page.getByTestId('product-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(video).toHaveCount(0);
  await page.context().close();
});

test('the video-help widget is loaded after marketing consent and removed when it is withdrawn', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'buyer');
  const widget = page.getByTestId('video-help-widget');
  await expect(page.getByTestId('slideshow')).toBeVisible();
  await expect(widget).toHaveCount(0);
  expect(await page.locator('script[data-video-help]').count()).toBe(0);

  const dialog = page.getByRole('dialog', { name: 'Cookie-Einstellungen' });
  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie-Einstellungen' }).click();
  await dialog.getByLabel('Marketing').check();
  await dialog.getByRole('button', { name: 'Auswahl speichern' }).click();
  await expect(widget).toBeVisible();
  await expect(widget.getByRole('link', { name: 'Video-Hilfe' })).toHaveAttribute(
    'href',
    '/video-help/kuechenwerk-einfuehrung.html',
  );

  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie-Einstellungen' }).click();
  await dialog.getByLabel('Marketing').uncheck();
  await dialog.getByRole('button', { name: 'Auswahl speichern' }).click();
  await expect(widget).toHaveCount(0);
  await expect(page.locator('script[data-video-help]')).toHaveCount(0);
  await page.context().close();
});
