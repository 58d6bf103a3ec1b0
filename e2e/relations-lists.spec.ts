import { expect, test, type Page } from '@playwright/test';
import { sessionFile } from './support/demo';
import { pageHeading } from './support/session';
import { tableRow, toastWith } from './support/relations';

/**
 * The relation screens without changing data: 'Meine Lieferanten' (search, status filter, empty
 * state, add-supplier wizard steps with a simulated failure), the buyer's home page sections,
 * 'Meine Kunden' (search, filter, sorting, edit modal) and the staff list 'Geschäftspartner' with status
 * filter and audit trail. The flow that changes relations is in exclusive/relations.spec.ts.
 */

const problem = (status: number, title: string) => ({
  status,
  contentType: 'application/problem+json',
  body: JSON.stringify({ type: 'about:blank', title, status }),
});

const emptyPage = { items: [], currentPage: 1, pageSize: 1000, totalCount: 0, totalPages: 1 };

test.describe('Meine Lieferanten (einkauf2@, Wärme & Wasser Becker e.K.)', () => {
  test.use({ storageState: sessionFile('buyer2') });

  test('zeigt Karten und Tabelle, sucht nach Name und Nummer und filtert nach Status', async ({ page }) => {
    await page.goto('/meine-lieferanten');
    await expect(pageHeading(page)).toHaveText('Meine Lieferanten');
    await expect(page).toHaveTitle('SHK-Bestellportal | Meine Lieferanten');

    const card = page.getByTestId('supplier-card').filter({ hasText: 'Nordbad Großhandel' });
    await expect(card.getByText('Freigegeben')).toBeVisible();
    const link = card.getByRole('link', { name: 'Sortiment anzeigen – Nordbad Großhandel' });
    const href = await link.getAttribute('href');
    const url = new URL(href!, 'http://x');
    expect(url.pathname).toBe('/suche');
    const filters = JSON.parse(Buffer.from(url.searchParams.get('filters')!, 'base64').toString('utf8'));
    expect(filters).toEqual([{ columnName: 'wholesalers', filterType: 'Auswahl', filterValue: [{ value: '200001' }] }]);

    const table = page.getByRole('table', { name: 'Geschäftsbeziehungen' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Lieferant',
      'Lieferantennummer',
      'Kundennummer',
      'Status',
      'Bearbeiten',
    ]);
    const row = tableRow(page, 'Geschäftsbeziehungen', 'Nordbad Großhandel');
    await expect(row.getByRole('cell', { name: '200001' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'K-10077' })).toBeVisible();

    // Supplier information from the table.
    await row.getByRole('button', { name: 'Lieferanteninformationen zu Nordbad Großhandel' }).click();
    const info = page.getByRole('dialog', { name: 'Lieferanteninformationen – Nordbad Großhandel' });
    await expect(info.getByRole('link', { name: 'https://nordbad.example' })).toHaveAttribute('target', '_blank');
    await page.keyboard.press('Escape');
    await expect(info).toBeHidden();

    // Search by name (case-insensitive) and by supplier number; nothing found → empty state.
    const search = page.getByRole('searchbox', { name: 'Suche' });
    await search.fill('NORD');
    await expect(page).toHaveURL(/suche=NORD/);
    await expect(row).toBeVisible();
    await search.fill('200001');
    await expect(page).toHaveURL(/suche=200001/);
    await expect(row).toBeVisible();
    await search.fill('Gibt es nicht');
    await expect(page.getByText('Erweitern Sie Ihr Netzwerk')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Geschäftsbeziehungen' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Suche leeren' }).click();
    await expect(row).toBeVisible();

    // Status filter: 'Abgelehnt' → none; 'Freigegeben' → Nordbad; 'Alle' again.
    const status = page.getByRole('combobox', { name: 'Status' });
    await status.click();
    await page.getByRole('option', { name: 'Abgelehnt', exact: true }).click();
    await expect(page).toHaveURL(/status=3/);
    await expect(page.getByText('Erweitern Sie Ihr Netzwerk')).toBeVisible();
    await status.click();
    await page.getByRole('option', { name: 'Freigegeben', exact: true }).click();
    await expect(row).toBeVisible();
    await status.click();
    await page.getByRole('option', { name: 'Alle', exact: true }).click();
    await expect(page).not.toHaveURL(/status=/);
  });

  test('ein nicht numerischer Statusfilter fällt auf alle vier Status zurück', async ({ page }) => {
    let requested = '';
    page.on('request', (request) => {
      if (request.url().includes('/v1/SupplierCustomers?')) requested = request.url();
    });
    await page.goto('/meine-lieferanten?status=abc');
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'Nordbad Großhandel')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Alle');
    expect(requested).not.toContain('RelationStatusIds');
  });

  test('leerer Zustand ohne Lieferanten; ohne weitere Lieferanten ist Hinzufügen gesperrt', async ({ page }) => {
    await page.route(/\/v1\/SupplierCustomers\?/, (route) => route.fulfill({ json: emptyPage }));
    await page.route('**/v1/SupplierCustomers/SuppliersWithoutRelation', (route) => route.fulfill({ json: [] }));
    await page.goto('/meine-lieferanten');
    await expect(page.getByTestId('suppliers-empty')).toContainText('Erweitern Sie Ihr Netzwerk');
    await expect(page.getByRole('button', { name: 'Lieferanten hinzufügen' })).toBeDisabled();
  });

  test('Assistent: Liste → Details → Formular → Fehlschlag mit Servertitel → zurück', async ({ page }) => {
    await page.goto('/meine-lieferanten');
    await page.getByRole('button', { name: 'Lieferanten hinzufügen' }).click();
    const wizard = page.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 1 von 3 · Lieferant auswählen');

    // A supplier with a status is shown disabled.
    await expect(wizard.getByRole('button', { name: 'Nordbad Großhandel auswählen' })).toBeDisabled();
    await wizard.getByLabel('Lieferant suchen').fill('klima');
    await expect(wizard.getByTestId('wizard-supplier-option')).toHaveCount(1);

    // Supplier detail and back to the list.
    await wizard.getByRole('button', { name: 'Details zu KlimaSüd Lüftungstechnik' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 1 von 3 · Lieferantendetails');
    await expect(wizard.getByText('KlimaSüd Lüftungstechnik GmbH')).toBeVisible();
    await wizard.getByRole('button', { name: 'Zurück' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 1 von 3 · Lieferant auswählen');

    // The form: the supplier needs its new-customer form; without a number name and e-mail are prefilled.
    await wizard.getByRole('button', { name: 'KlimaSüd Lüftungstechnik auswählen' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 2 von 3 · Partnerschaft wählen');
    await expect(wizard.getByRole('button', { name: 'Neukundenformular herunterladen' })).toBeVisible();
    await wizard.getByText('Ich bin Neukunde').click();
    await expect(wizard.getByRole('textbox', { name: /^Name/ })).toHaveValue('Bernd Becker');
    await expect(wizard.getByLabel('E-Mail')).toHaveValue('einkauf2@example.com');
    await wizard.getByLabel('E-Mail').fill('keine-adresse');
    await wizard.getByRole('button', { name: 'Weiter' }).click();
    await expect(wizard.getByText('Bitte überprüfen Sie Ihre Eingabe.')).toBeVisible();
    await wizard.getByText('Ich bin bereits Kunde').click();
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(wizard.getByText('Pflichtfeld')).toBeVisible();
    await wizard.getByLabel('Kundennummer').fill('x'.repeat(101));
    await expect(wizard.getByText('Maximal 100 Zeichen')).toBeVisible();

    // The server refuses: the unsuccessful step shows its title; back returns to the form, back again to the list.
    await page.route('**/v1/SupplierCustomers', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill(problem(409, 'Zu diesem Lieferanten besteht bereits eine Geschäftsbeziehung.'))
        : route.fallback(),
    );
    await wizard.getByLabel('Kundennummer').fill('KS-1');
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 3 von 3 · Anfrage nicht übermittelt');
    await expect(wizard.getByText('Zu diesem Lieferanten besteht bereits eine Geschäftsbeziehung.')).toBeVisible();
    await expect(
      wizard.getByText('Ihre Anfrage konnte leider nicht übermittelt werden. Bitte versuchen Sie es später erneut.'),
    ).toBeVisible();
    await wizard.getByRole('button', { name: 'Zurück' }).click();
    await expect(wizard.getByLabel('Kundennummer')).toHaveValue('KS-1');
    await wizard.getByRole('button', { name: 'Zurück' }).click();
    await expect(wizard.getByTestId('wizard-step')).toHaveText('Schritt 1 von 3 · Lieferant auswählen');

    // Closing resets the dialog (after 500 ms): it opens on the list again.
    await page.keyboard.press('Escape');
    await expect(wizard).toBeHidden();
    await page.getByRole('button', { name: 'Lieferanten hinzufügen' }).click();
    await expect(wizard.getByLabel('Lieferant suchen')).toHaveValue('');
  });

  test('Startseite: Lieferantenkarten und weitere Lieferanten; Fehler beim Hinzufügen', async ({ page }) => {
    await page.goto('/');
    const mine = page.getByTestId('home-my-suppliers');
    await expect(mine.getByRole('article', { name: 'Nordbad Großhandel' })).toBeVisible();
    const further = page.getByTestId('home-further-suppliers');
    await expect(further.getByRole('article', { name: 'Hydroline Heiztechnik' })).toBeVisible();
    await expect(further.getByRole('article', { name: 'Nordbad Großhandel' })).toHaveCount(0);

    await page.route('**/v1/SupplierCustomers', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill(problem(500, 'Es ist ein interner Fehler aufgetreten.'))
        : route.fallback(),
    );
    await further.getByRole('button', { name: 'Hydroline Heiztechnik hinzufügen' }).click();
    const wizard = page.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
    await expect(wizard.getByTestId('wizard-supplier')).toHaveText('Hydroline Heiztechnik');
    await wizard.getByLabel('Kundennummer').fill('HL-1');
    await wizard.getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(toastWith(page, 'Fehler beim Hinzufügen des Lieferanten')).toBeVisible();
    await expect(wizard.getByText('Es ist ein interner Fehler aufgetreten.')).toBeVisible();
  });
});

test.describe('Meine Kunden (verkauf@, Nordbad)', () => {
  test.use({ storageState: sessionFile('seller') });

  const names = (page: Page) => page.getByRole('table', { name: 'Kunden' }).locator('tbody tr td:first-child');

  test('Spalten, Sortierung nach Name, Suche, Statusfilter und Bearbeiten-Dialog', async ({ page }) => {
    await page.goto('/meine-kunden');
    await expect(pageHeading(page)).toHaveText('Meine Kunden');
    const table = page.getByRole('table', { name: 'Kunden' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Kundenname',
      'Kundennummer',
      'USt-IdNr.',
      'Geschäftspartnernummer',
      'Status',
      'Bearbeiten',
    ]);
    await expect(names(page)).toHaveText(['Sanitär Müller GmbH', 'Wärme & Wasser Becker e.K.']);
    await expect(table.getByRole('columnheader', { name: 'Kundenname' })).toHaveAttribute('aria-sort', 'ascending');
    await table.getByRole('button', { name: 'Kundenname' }).click();
    await expect(names(page)).toHaveText(['Wärme & Wasser Becker e.K.', 'Sanitär Müller GmbH']);

    // Search by name, partner number and customer number.
    const search = page.getByRole('searchbox', { name: 'Suche' });
    await search.fill('becker');
    await expect(names(page)).toHaveText(['Wärme & Wasser Becker e.K.']);
    await search.fill('100001');
    await expect(names(page)).toHaveText(['Sanitär Müller GmbH']);
    await search.fill('K-10077');
    await expect(names(page)).toHaveText(['Wärme & Wasser Becker e.K.']);
    await search.fill('niemand');
    await expect(table.getByText('Keine Ergebnisse').or(page.getByText('Keine Ergebnisse'))).toBeVisible();
    await page.getByRole('button', { name: 'Suche leeren' }).click();

    await page.goto('/meine-kunden?status=2');
    await expect(page.getByText('Keine Ergebnisse')).toBeVisible();

    // The edit modal of an approved customer offers 'Kunden entfernen' with a confirmation; nothing is saved here.
    await page.goto('/meine-kunden');
    await tableRow(page, 'Kunden', 'Sanitär Müller GmbH')
      .getByRole('button', { name: 'Kunde Sanitär Müller GmbH bearbeiten' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Kunde bearbeiten – Sanitär Müller GmbH' });
    await expect(dialog.getByLabel('Kundennummer')).toHaveValue('K-10001');
    await dialog.getByLabel('Kundennummer').fill('');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Pflichtfeld')).toBeVisible();
    await dialog.getByLabel('Kundennummer').fill('K-10001-neu');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    const confirm = page.getByRole('dialog', { name: 'Bitte bestätigen' });
    await expect(confirm).toContainText('Möchten Sie die Kundennummer von „K-10001“ in „K-10001-neu“ ändern?');
    await confirm.getByRole('button', { name: 'Zurück' }).click();
    await dialog.getByRole('button', { name: 'Kunden entfernen' }).click();
    await expect(confirm).toContainText('Möchten Sie Sanitär Müller GmbH wirklich als Kunden entfernen?');
    // The reason is required: confirming without one sends nothing.
    const sent: unknown[] = [];
    await page.route('**/v1/SupplierCustomers/*', (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      sent.push(route.request().postDataJSON());
      return route.fulfill(problem(409, 'Dieser Statuswechsel ist nicht erlaubt.'));
    });
    await confirm.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(confirm.getByText('Pflichtfeld')).toBeVisible();
    expect(sent).toEqual([]);
    await confirm.getByLabel('Begründung').fill('Keine Bestellungen seit zwei Jahren');
    await confirm.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(toastWith(page, 'Dieser Statuswechsel ist nicht erlaubt.')).toBeVisible();
    expect(sent).toEqual([
      { relationStatusId: 3, comments: 'Keine Bestellungen seit zwei Jahren', supplierCustomerNumber: null },
    ]);
    await page.unroute('**/v1/SupplierCustomers/*');
    await dialog.getByRole('button', { name: 'Kunden entfernen' }).click();
    await expect(confirm.getByLabel('Begründung')).toHaveValue('');
    await confirm.getByRole('button', { name: 'Zurück' }).click();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
  });

  test('ein Fehler beim Speichern zeigt den Titel des Servers', async ({ page }) => {
    await page.route('**/v1/SupplierCustomers/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill(problem(409, 'Dieser Statuswechsel ist nicht erlaubt.'))
        : route.fallback(),
    );
    await page.goto('/meine-kunden');
    await tableRow(page, 'Kunden', 'Wärme & Wasser Becker e.K.')
      .getByRole('button', { name: 'Kunde Wärme & Wasser Becker e.K. bearbeiten' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Kunde bearbeiten – Wärme & Wasser Becker e.K.' });
    await dialog.getByLabel('Kommentar').fill('Rahmenvertrag 2026');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(toastWith(page, 'Dieser Statuswechsel ist nicht erlaubt.')).toBeVisible();
  });
});

test.describe('Geschäftspartner (Mitarbeiter)', () => {
  test.use({ storageState: sessionFile('operator') });

  test('Liste mit Statusfilter (sechs Status), Suche nach Nummern und Verlauf', async ({ page }) => {
    await page.goto('/geschaeftspartner');
    await expect(pageHeading(page)).toHaveText('Geschäftspartner');
    const table = page.getByRole('table', { name: 'Geschäftsbeziehungen' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Lieferantennummer',
      'Lieferant',
      'Käufernummer',
      'Käufer',
      'Kundennummer',
      'Gemeinsame Kunden-ID',
      'Status',
      'Verlauf',
    ]);
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'Rohrwerk Sauerland')).toBeVisible();

    const status = page.getByRole('combobox', { name: 'Status' });
    await status.click();
    await expect(page.getByRole('option')).toHaveText([
      'Alle',
      'Freigegeben',
      'Wartet auf Bestätigung',
      'Abgelehnt',
      'Kundennummer angefragt',
      'Gesperrt',
      'Ungültig',
    ]);
    await page.getByRole('option', { name: 'Abgelehnt', exact: true }).click();
    await expect(page).toHaveURL(/status=3/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'Rohrwerk Sauerland')).toBeVisible();
    await status.click();
    await page.getByRole('option', { name: 'Gesperrt', exact: true }).click();
    await expect(page.getByText('Keine Ergebnisse')).toBeVisible();
    await status.click();
    await page.getByRole('option', { name: 'Alle', exact: true }).click();

    // Search by supplier and by buyer business-partner number.
    await page.getByRole('searchbox', { name: 'Lieferantennummer' }).fill('200003');
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'AquaTherm Armaturen')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Lieferantennummer' }).fill('');
    await page.getByRole('searchbox', { name: 'Käufernummer' }).fill('100002');
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'Rohrwerk Sauerland')).toBeVisible();
    await expect(tableRow(page, 'Geschäftsbeziehungen', 'AquaTherm Armaturen')).toHaveCount(0);

    // The audit trail of the rejected relation.
    await tableRow(page, 'Geschäftsbeziehungen', 'Rohrwerk Sauerland')
      .getByRole('button', { name: /^Verlauf/ })
      .click();
    const trail = page.getByRole('dialog', { name: 'Verlauf der Geschäftsbeziehung' });
    await expect(trail).toContainText('Rohrwerk Sauerland (200004)');
    await expect(trail).toContainText('Heizungsbau Schmidt & Söhne KG (100002)');
    const changes = trail.getByRole('table', { name: 'Statusänderungen' });
    await expect(changes.getByRole('columnheader')).toHaveText([
      'Zeitpunkt',
      'Geändert von',
      'Alter Status',
      'Neuer Status',
      'Kommentar',
    ]);
    await expect(changes.locator('tbody tr').first()).toContainText('Abgelehnt');
    await expect(changes.locator('tbody tr').first()).toContainText(
      'Kundennummer unbekannt – bitte prüfen Sie Ihre Angabe.',
    );
  });
});
