import { expect, test } from '@playwright/test';
import { sessionFile } from '../support/demo';
import { pageHeading } from '../support/session';
import { apiFromPage, toastWith } from '../support/relations';

/**
 * Custom parameters: the administrator changes MaxCartCount to 2 on /parameter and the buyer's
 * third cart is refused with the spec's tooltip on the next request, without a restart. Exclusive because
 * every cart spec reads MaxCartCount; the value and the buyer's carts are restored at the end.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const TOOLTIP = 'Maximale Anzahl von 2 Warenkörben erreicht.';
let original = '';
const createdCarts: number[] = [];

test.describe('MaxCartCount', () => {
  test('the administrator sets 2 through the values table (type and feature rules checked)', async ({ browser }) => {
    // A buyer's tab that is already open with two carts, before the change (the limit is still the old one).
    const buyer = await browser.newContext({ storageState: sessionFile('buyer') });
    const buyerPage = await buyer.newPage();
    await buyerPage.goto('/my-carts');
    const list = await apiFromPage<{ id: number }[]>(buyerPage, 'GET', '/v1/MultiCarts');
    for (let i = list.data.length; i < 2; i++) {
      const created = await apiFromPage<{ id: number }>(buyerPage, 'POST', '/v1/MultiCarts', { name: `Limit ${i}` });
      expect(created.status).toBe(201);
      createdCarts.push(created.data.id);
    }
    await buyerPage.reload();
    const buyerAdd = buyerPage.getByRole('button', { name: 'Warenkorb hinzufügen' });
    await expect(buyerAdd).toBeVisible();
    await expect(buyerAdd).not.toHaveAttribute('aria-disabled', 'true');

    const context = await browser.newContext({ storageState: sessionFile('admin') });
    const page = await context.newPage();
    await page.goto('/parameter');
    await expect(pageHeading(page)).toHaveText('Zugeschnittene Parameter');
    await page.getByRole('textbox', { name: 'Suche' }).fill('warenkörbe');
    const rows = page.getByRole('table', { name: 'Zugeschnittene Parameter' }).getByRole('row');
    await expect(rows.filter({ hasText: 'MaxCartCount' })).toHaveCount(1);
    await page.getByRole('link', { name: 'Parameter MaxCartCount bearbeiten' }).click();
    await expect(page).toHaveURL(/\/parameter\/MaxCartCount$/);

    const values = page.getByRole('table', { name: 'Werte' });
    const firstValue = values.getByRole('row').nth(1);
    original = (await firstValue.getByRole('cell').nth(1).textContent())?.trim() ?? '';
    expect(Number(original)).toBeGreaterThan(2);
    await firstValue.getByRole('button', { name: /bearbeiten/ }).click();
    const modal = page.getByRole('dialog', { name: 'Wert bearbeiten' });
    const input = modal.getByRole('textbox', { name: /^Wert/ });
    await input.fill('');
    await input.blur();
    await expect(modal.getByText('Pflichtfeld')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Speichern' })).toBeDisabled();
    await input.fill('0');
    await expect(modal.getByText('Bitte geben Sie eine ganze Zahl ab 1 ein.')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Speichern' })).toBeDisabled();
    await input.fill('2');
    await modal.getByRole('button', { name: 'Speichern' }).click();
    await expect(toastWith(page, 'Der Wert wurde gespeichert.')).toBeVisible();
    await expect(firstValue).toContainText('2');

    // A second open-ended value of a one-value key overlaps: the server's detail title as toast.
    await page.getByRole('button', { name: 'Wert hinzufügen' }).click();
    const addModal = page.getByRole('dialog', { name: 'Wert hinzufügen' });
    await addModal.getByRole('textbox', { name: /^Wert/ }).fill('3');
    await addModal.getByRole('button', { name: 'Speichern' }).click();
    await expect(
      toastWith(page, 'Der Gültigkeitszeitraum überschneidet sich mit einem anderen Wert dieses Parameters.'),
    ).toBeVisible();
    await context.close();

    // The open tab follows without a reload as soon as it is in front again (configuration values are
    // re-read on focus and on mount, api/configuration.ts).
    await buyerPage.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await expect(buyerAdd).toHaveAttribute('aria-disabled', 'true');
    await buyerAdd.hover();
    await expect(buyerPage.getByRole('tooltip')).toHaveText(TOOLTIP);
    await buyer.close();
  });

  test("the buyer's third cart is refused with the tooltip", async ({ browser }) => {
    const context = await browser.newContext({ storageState: sessionFile('buyer') });
    const page = await context.newPage();
    await page.goto('/my-carts');
    await expect(pageHeading(page)).toBeVisible();
    const list = await apiFromPage<{ id: number }[]>(page, 'GET', '/v1/MultiCarts');
    for (let i = list.data.length; i < 2; i++) {
      const created = await apiFromPage<{ id: number }>(page, 'POST', '/v1/MultiCarts', { name: `Limit ${i}` });
      expect(created.status).toBe(201);
      createdCarts.push(created.data.id);
    }
    await page.reload();
    const add = page.getByRole('button', { name: 'Warenkorb hinzufügen' });
    await expect(add).toHaveAttribute('aria-disabled', 'true');
    await add.hover();
    await expect(page.getByRole('tooltip')).toHaveText(TOOLTIP);
    const third = await apiFromPage<{ title: string }>(page, 'POST', '/v1/MultiCarts', { name: 'Dritter' });
    expect(third.status).toBe(400);
    expect(third.data.title).toBe(TOOLTIP);
    await context.close();
  });

  test.afterAll(async ({ browser }) => {
    const buyer = await browser.newContext({ storageState: sessionFile('buyer') });
    const buyerPage = await buyer.newPage();
    await buyerPage.goto('/');
    for (const id of createdCarts) await apiFromPage(buyerPage, 'DELETE', `/v1/MultiCarts/${id}`);
    await buyer.close();
    const admin = await browser.newContext({ storageState: sessionFile('admin') });
    const page = await admin.newPage();
    await page.goto('/');
    const values = await apiFromPage<{ id: number }[]>(page, 'GET', '/v1/CustomParameter/MaxCartCount/values');
    await apiFromPage(page, 'PUT', `/v1/CustomParameter/MaxCartCount/values/${values.data[0].id}`, {
      value: original || '10',
      validFrom: null,
      validTo: null,
    });
    await admin.close();
  });
});
