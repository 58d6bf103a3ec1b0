import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { apiFromPage } from './support/relations';

/**
 * Confidentiality (docs/security.md): a seller sees other suppliers' products, but not their prices or delivery
 * times, and the page shows no empty boxes for them; a secret parameter is shown masked and never sent to the page.
 */

interface Hit {
  productId: string;
  rows: { PRODUCTINSTANCE_ID: string };
}
interface Offer {
  productInstanceId: string;
  supplierId: string;
  name: string;
  conditionsHidden: boolean;
}

test.describe('Verkäufer (Nordbad) auf der Produktseite eines Artikels, den auch Wärmekontor anbietet', () => {
  test.use({ storageState: sessionFile('seller') });

  test('zeigt Preis und Lieferzeit nur beim eigenen Angebot, beim Wettbewerber keine leeren Preisfelder', async ({
    page,
  }) => {
    const signedIn = page.waitForResponse((r) => r.url().includes('/v1/UserProfile') && r.ok());
    await page.goto('/');
    await signedIn;
    const search = await apiFromPage<{ hits: Hit[] }>(page, 'POST', '/v1/Product/Search', {
      page: 1,
      pageSize: 50,
      searchTerm: 'Thermostatventil',
    });
    let found: { productId: string; competitor: Offer; own: Offer } | null = null;
    for (const hit of search.data.hits) {
      const details = await apiFromPage<{ offers: Offer[] }>(
        page,
        'GET',
        `/v1/Product/Details?productInstanceId=${encodeURIComponent(hit.rows.PRODUCTINSTANCE_ID)}`,
      );
      const own = details.data.offers.find((o) => o.supplierId === '200001');
      const competitor = details.data.offers.find((o) => o.supplierId === '200002');
      if (own && competitor) {
        found = { productId: hit.productId, own, competitor };
        break;
      }
    }
    expect(found, 'ein Artikel von Nordbad und Wärmekontor').not.toBeNull();
    const { productId, own, competitor } = found!;

    // The competitor's offer chosen: no price, no delivery time, no empty price fields.
    await page.goto(`/produkt?${new URLSearchParams({ id: productId, articleNumber: competitor.productInstanceId })}`);
    const offers = page.getByTestId('offer');
    await expect(offers).toHaveCount(2);
    const competitorCard = offers.filter({ hasText: competitor.name });
    const ownCard = offers.filter({ hasText: own.name });
    await expect(ownCard.getByTestId('offer-price')).toContainText('€');
    await expect(competitorCard.getByTestId('offer-price')).toHaveCount(0);
    await expect(competitorCard).not.toContainText('Lieferzeit');
    await expect(competitorCard).not.toContainText('€');
    // The offer panel (related products further down show the seller's own prices, rightly).
    const page_ = page.locator('.mantine-Paper-root').filter({ has: page.getByTestId('offer-selector') });
    await expect(page_).toContainText('Werksartikelnummer');
    for (const label of ['Preis (netto)', 'Preisbasis', 'Bruttolistenpreis', 'Mindestbestellmenge', 'Lieferzeit']) {
      await expect(page_.getByText(label, { exact: true })).toHaveCount(0);
    }

    // The own offer chosen: its conditions are there.
    await ownCard.click();
    await page.waitForURL((url) => url.searchParams.get('articleNumber') === own.productInstanceId);
    await expect(page_.getByText('Preis (netto)', { exact: true })).toBeVisible();
  });

  test('die Suche zeigt keinen Preisregler und bei Artikeln nur der Wettbewerber keinen Preis', async ({ page }) => {
    await page.goto('/suche?term=Thermostatventil&page=1');
    const cards = page.getByTestId('product-card');
    await expect(cards.first()).toBeVisible();
    // Every card of the page (the list renders the first ones at once, the rest while idle).
    await expect(page.getByTestId('search-results')).not.toHaveAttribute('aria-busy', 'true');
    const hits = await cards.count();
    for (let i = 0; i < hits; i++) {
      const card = cards.nth(i);
      const ownOffer = (await card.textContent())?.includes('Nordbad');
      if (!ownOffer) await expect(card.getByTestId('card-price')).toHaveCount(0);
    }
    await expect(page.getByText('Preis (netto)', { exact: true }).filter({ visible: true })).toHaveCount(
      await page.getByTestId('card-price').count(),
    );
  });
});

test.describe('Administrator: geheimer Parameter', () => {
  test.use({ storageState: sessionFile('admin') });

  test('KitchenConfiguratorClientSecret ist maskiert, das Bearbeiten zeigt den Wert nicht und behält ihn', async ({
    page,
  }) => {
    const answers: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/v1/CustomParameter')) answers.push(await r.text().catch(() => ''));
    });
    await page.goto('/parameter/KitchenConfiguratorClientSecret');
    await expect(page.getByText('Geheimnis', { exact: true })).toBeVisible();
    const value = page.getByTestId('parameter-value');
    await expect(value).toHaveCount(1);
    await expect(value).toHaveText('••••••••');
    // The demo world's secret is nowhere: not on the page, not in any answer.
    await expect(page.locator('body')).not.toContainText('demo-kuechenwerk');
    expect(answers.join('\n')).not.toContain('demo-kuechenwerk');

    await page.getByRole('button', { name: 'Wert Nr. 1 bearbeiten' }).click();
    const dialog = page.getByRole('dialog', { name: 'Wert bearbeiten' });
    const field = dialog.getByLabel('Wert', { exact: true });
    await expect(field).toHaveValue('');
    await expect(field).toHaveAttribute('type', 'password');
    await expect(dialog).toContainText('Lassen Sie das Feld leer');
    // Saving without a new value keeps the stored one.
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Der Wert wurde gespeichert.')).toBeVisible();
    await expect(value).toHaveText('••••••••');
  });
});
