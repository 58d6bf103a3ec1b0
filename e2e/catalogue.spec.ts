import { expect, test, type Locator, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage, toastWith } from './support/relations';
import { mainMenu, pageHeading } from './support/session';

/**
 * Catalogue front end: search → brand → slider → page 2 → product → favourite → Meine Favoriten;
 * a filtered search URL survives a reload; a buyer puts an orderable offer into the cart.
 */

const TERM = 'Thermostatventil';
/** Waiting for a (first) search result: generous, CI machines may be busy. */
const RESULT = { timeout: 45_000 };

const hitCountOf = async (page: Page) => {
  const text = (await page.getByTestId('hit-count').textContent()) ?? '';
  return Number(
    text
      .replace(/Treffer[\s\S]*/, '')
      .replace(/\./g, '')
      .trim(),
  );
};
const cards = (page: Page) => page.getByTestId('search-results').getByTestId('product-card');
const completeResults = (page: Page) =>
  expect(page.getByTestId('search-results')).not.toHaveAttribute('aria-busy', 'true', RESULT);
/** The names of all cards of the result page (the list renders its first cards at once, the rest while idle). */
const cardNames = async (page: Page) => {
  await completeResults(page);
  return cards(page).getByTestId('card-name').allTextContents();
};
/** German number in a text ('1.234,5') → 1234.5 */
const germanNumber = (text: string) => Number(text.replace(/\./g, '').replace(',', '.'));

/** The brand most frequent among the visible cards and one card that shows it. */
async function mostFrequentBrand(page: Page): Promise<{ brand: string; card: Locator }> {
  await completeResults(page);
  const brands = await cards(page).getByTestId('card-brand').allTextContents();
  const counts = new Map<string, number>();
  for (const brand of brands) counts.set(brand, (counts.get(brand) ?? 0) + 1);
  const [brand] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return {
    brand,
    card: cards(page)
      .filter({ has: page.getByTestId('card-brand').getByText(brand, { exact: true }) })
      .first(),
  };
}

test.describe('Katalog für Einkäufer (einkauf@)', () => {
  test.use({ storageState: sessionFile('buyer') });
  test.describe.configure({ timeout: 120_000 });

  test('Kompositum suchen → Marke → Preisregler → Seite 2 → Produkt → Favorit → Meine Favoriten', async ({ page }) => {
    test.setTimeout(240_000);
    // Home search stage: opens /suche with page=1.
    await page.goto('/');
    await page.getByTestId('home-categories').waitFor(RESULT);
    await page.getByRole('searchbox', { name: 'Suchbegriff' }).fill(TERM);
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === '/suche' && url.searchParams.get('term') === TERM && url.searchParams.get('page') === '1',
    );
    await expect(pageHeading(page)).toHaveText('Suche');
    await expect(cards(page).first()).toBeVisible(RESULT);
    const total = await hitCountOf(page);
    expect(total).toBeGreaterThan(25);
    // A compound word is found as such: every name on the first page contains it.
    for (const name of await cardNames(page)) expect(name.toLowerCase()).toContain('ventil');

    // Clicking the brand on a card adds the brand filter.
    const { brand, card } = await mostFrequentBrand(page);
    await card.getByTestId('card-brand').click();
    await expect(page.getByTestId('active-filter').filter({ hasText: `Marke: ${brand}` })).toBeVisible();
    await expect.poll(() => hitCountOf(page)).toBeLessThan(total);
    await expect
      .poll(async () => {
        await completeResults(page);
        return [...new Set(await cards(page).getByTestId('card-brand').allTextContents())];
      })
      .toEqual([brand]);
    const ofBrand = await hitCountOf(page);

    // Narrow with the price slider: a maximum just below the most expensive offer.
    const slider = page.getByTestId('slider-mhk_handelsdaten_preis');
    await expect(slider).toBeVisible();
    const range = (await slider.getByText(/^Bereich:/).textContent()) ?? '';
    const high = germanNumber(/–\s*([\d.,]+)/.exec(range)?.[1] ?? 'NaN');
    expect(high).toBeGreaterThan(1);
    // Out of range first: the spec's message, nothing applied.
    await slider.getByLabel('Preis (netto) Maximum').fill(String(high + 1000));
    await slider.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(slider.getByText('Eingabe außerhalb des gültigen Bereichs')).toBeVisible();
    const max = Math.floor(high) - 1;
    await slider.getByLabel('Preis (netto) Maximum').fill(String(max));
    await slider.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(page.getByTestId('active-filter').filter({ hasText: `Preis (netto): bis ${max}` })).toBeVisible();
    await expect.poll(() => hitCountOf(page)).toBeLessThan(ofBrand);
    const narrowed = await hitCountOf(page);
    expect(narrowed, 'genug Treffer für eine zweite Seite').toBeGreaterThan(25);
    const firstPageNames = await cardNames(page);

    // Page 2.
    await page.getByTestId('pagination').getByRole('link', { name: 'Seite 2' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2');
    await expect(page.getByTestId('pagination').getByRole('link', { name: 'Seite 2' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect.poll(() => cardNames(page)).not.toEqual(firstPageNames);
    const secondPageNames = await cardNames(page);
    expect(secondPageNames.length).toBe(Math.min(25, narrowed - 25));

    // The filtered URL reloads to the same result: filters (base64 JSON), page and hits.
    const filters = JSON.parse(
      Buffer.from(new URL(page.url()).searchParams.get('filters') ?? '', 'base64').toString('utf8'),
    );
    expect(filters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: brand }] }),
        expect.objectContaining({
          columnName: 'mhk_handelsdaten_preis',
          filterType: 'Regler',
          sliderValues: { minValue: null, maxValue: max },
        }),
      ]),
    );
    await page.reload();
    await expect(cards(page).first()).toBeVisible(RESULT);
    expect(await hitCountOf(page)).toBe(narrowed);
    expect(await cardNames(page)).toEqual(secondPageNames);
    await expect(page.getByTestId('active-filter')).toHaveCount(2);

    // Open a product from the result.
    const chosen = cards(page).first();
    const name = (await chosen.getByTestId('card-name').textContent())!.trim();
    await chosen.getByTestId('card-name').click();
    await expect(page).toHaveURL((url) => url.pathname === '/produkt');
    await expect(page.getByTestId('product-name')).toHaveText(name, RESULT);
    await expect(page.getByTestId('product-brand')).toHaveText(brand);
    await expect(page.getByTestId('offer').first()).toBeVisible();

    // Mark it as favourite …
    const star = page.getByTestId('product-page').getByTestId('favourite-toggle');
    if ((await star.getAttribute('aria-pressed')) === 'true') {
      await star.click();
      await expect(star).toHaveAttribute('aria-pressed', 'false');
    }
    const favouriteSaved = page.waitForResponse(
      (r) => r.url().includes('/v1/FavoriteProducts') && r.request().method() === 'POST',
    );
    await star.click();
    expect([200, 201]).toContain((await favouriteSaved).status());
    await expect(star).toHaveAttribute('aria-pressed', 'true');

    // … and find it in 'Meine Favoriten'.
    await mainMenu(page).getByRole('link', { name: 'Meine Favoriten' }).click();
    await expect(pageHeading(page)).toHaveText('Meine Favoriten');
    const favourite = page.getByTestId('favourite-card').filter({ hasText: name });
    await expect(favourite).toBeVisible();
    await expect(favourite.getByTestId('card-brand')).toHaveText(brand);

    // Clean up: removing asks first.
    await favourite.getByTestId('favourite-toggle').click();
    const confirm = page.getByRole('dialog', { name: 'Favorit entfernen' });
    await confirm.getByRole('button', { name: 'Entfernen' }).click();
    await expect(favourite).toHaveCount(0);
  });

  test('ein kaputter Filterwert in der URL zeigt die ungefilterte Suche statt eines Fehlers', async ({ page }) => {
    await page.goto(`/suche?term=${TERM}&page=1&filters=${encodeURIComponent('kein-base64-%%%')}`);
    await expect(cards(page).first()).toBeVisible(RESULT);
    await expect(page.getByTestId('active-filter')).toHaveCount(0);
    const plain = await hitCountOf(page);

    // Valid base64 JSON with a filter the API refuses (unknown column): also the unfiltered search.
    const refused = Buffer.from(
      JSON.stringify([{ columnName: 'gibtEsNicht', filterType: 'Auswahl', filterValue: [{ value: 'x' }] }]),
    ).toString('base64');
    await page.goto(`/suche?term=${TERM}&page=1&filters=${encodeURIComponent(refused)}`);
    await expect(page.getByTestId('filters-refused')).toBeVisible();
    await expect(cards(page).first()).toBeVisible(RESULT);
    expect(await hitCountOf(page)).toBe(plain);
  });

  test('/aktion öffnet die Suche mit dem Aktionsbaum SHKMARKET_10', async ({ page }) => {
    await page.goto('/aktion');
    await expect(page).toHaveURL((url) => url.pathname === '/suche');
    const filters = JSON.parse(
      Buffer.from(new URL(page.url()).searchParams.get('filters') ?? '', 'base64').toString('utf8'),
    );
    expect(filters).toEqual([
      { columnName: 'TREE_ELEMENT_ID_SHKMARKET', filterType: 'Baum', filterValue: [{ value: 'SHKMARKET_10' }] },
    ]);
    await expect(cards(page).first()).toBeVisible(RESULT);
    await expect(page.getByTestId('active-filter').filter({ hasText: 'Kategorie: Aktion' })).toBeVisible();
    await expect(page.getByTestId('search-tree').locator('[aria-current="true"]')).toContainText('Aktion');
  });

  test('unbekannte Produkte zeigen die Nicht-gefunden-Texte', async ({ page }) => {
    await page.goto('/produkt?id=9999999~GIBT-ES-NICHT');
    await expect(pageHeading(page)).toHaveText('Produkt');
    await expect(page.getByText('Artikelnummer GIBT-ES-NICHT nicht gefunden.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Neue Suche starten' })).toBeVisible();
    await page.goto('/produkt');
    await expect(page.getByText('Produkt nicht gefunden')).toBeVisible();
  });
});

test.describe('Warenkorb von der Produktseite (einkauf2@, Geschäftsbeziehung mit Nordbad)', () => {
  test.use({ storageState: sessionFile('buyer2') });
  test.describe.configure({ timeout: 120_000 });

  test('legt ein bestellbares Angebot in den Warenkorb und zeigt die Erfolgsmeldung', async ({ page }) => {
    await page.goto(`/suche?term=${TERM}&page=1`);
    await expect(cards(page).first()).toBeVisible(RESULT);
    await cards(page).first().getByTestId('card-name').click();
    await expect(page.getByTestId('product-name')).toBeVisible(RESULT);

    // Choose an orderable offer (Nordbad: approved relation).
    const orderable = page
      .getByTestId('offer')
      .filter({ has: page.getByTestId('offer-orderable') })
      .first();
    await orderable.click();
    await expect(orderable).toHaveAttribute('data-checked', 'true');
    const addToCart = page.getByTestId('product-page').getByTestId('add-to-cart');
    await expect(addToCart).toBeEnabled();

    // Quantity 3 from the dropdown (1–9 and '10+').
    await page.getByTestId('product-page').getByLabel('Menge', { exact: true }).selectOption('3');
    const added = page.waitForResponse((r) => r.url().endsWith('/v1/CartItems') && r.request().method() === 'POST');
    await addToCart.click();
    const response = await added;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toMatchObject({ quantity: 3 });
    await expect(toastWith(page, 'Der Artikel wurde erfolgreich zum Warenkorb hinzugefügt.')).toBeVisible();

    // Clean up: the item leaves the cart again.
    const { cartItemId } = (await response.json()) as { cartItemId: number };
    expect((await apiFromPage(page, 'DELETE', `/v1/CartItems/${cartItemId}`)).status).toBe(204);
  });
});
