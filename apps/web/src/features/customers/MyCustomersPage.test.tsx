import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { RelationStatus, Role } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi } from '../../test/fake-api';
import type { Relation } from '../../api/relations';
import { testRelation } from '../../test/relation';
import { fieldLabel, renderWithApp, testProfile } from '../../test/render';
import MyCustomersPage from './MyCustomersPage';

/**
 * 'Meine Kunden' with a request without customer number: the row says 'Neukunde', the edit dialog shows the company
 * data and the contact person the buyer entered (German labels), and nothing of the kind for other customers.
 */
afterEach(() => act(() => toast.dismissAll()));

const becker = testRelation({
  id: 31,
  buyer: { ...testRelation().buyer, name: 'Sanitär Becker', bpNumber: '100009', vatId: null },
  relationStatusId: RelationStatus.CustomerIdRequested,
  newCustomerPartner: {
    officialCompanyName: 'Sanitär Becker GmbH & Co. KG',
    street: 'Ringstraße',
    houseNumber: '12a',
    postalCode: '50667',
    city: 'Köln',
    country: 'DE',
    email: 'buchhaltung@becker.example',
    phoneNumber: '+49 221 555012',
    faxNumber: null,
    website: 'www.becker-sanitaer.example',
    vatId: 'DE123456789',
    taxNumber: '215/5812/1234',
  },
  newCustomerContact: {
    name: 'Erika Einkauf',
    email: 'einkauf@example.com',
    phone: '+49 221 555013',
    message: 'Bitte rufen Sie vormittags an.',
  },
});
const mueller = testRelation({ relationStatusId: RelationStatus.Approved, supplierCustomerNumber: 'K-10001' });

function renderPage(items: Relation[]) {
  const sent = fakeApi(({ method }) =>
    method === 'GET'
      ? { body: { items, currentPage: 1, pageSize: 1000, totalCount: items.length, totalPages: 1 } }
      : { body: { ...becker, relationStatusId: RelationStatus.Approved, supplierCustomerNumber: 'BK-2001' } },
  );
  const view = renderWithApp(<MyCustomersPage />, {
    path: '/meine-kunden',
    toasts: true,
    profile: testProfile({ role: Role.Seller, currentBpNumber: '200001' }),
  });
  return { ...view, sent };
}

const row = async (name: string) =>
  (await screen.findByText(name, { selector: 'p' })).closest('tr') as HTMLTableRowElement;

describe('MyCustomersPage (Meine Kunden) with a new-customer request', () => {
  it("marks the request 'Neukunde' and shows the buyer's company data and contact person in the dialog", async () => {
    const { user } = renderPage([becker, mueller]);
    const request = await row('Sanitär Becker');
    expect(within(request).getByText('Neukunde')).toBeTruthy();
    expect(within(request).getByText('Kundennummer angefragt')).toBeTruthy();
    expect(within(await row('Sanitär Müller')).queryByText('Neukunde')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Kunde Sanitär Becker bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde bearbeiten – Sanitär Becker' });
    const details = within(dialog).getByTestId('new-customer-details');
    expect(within(details).getByText('Firmendaten für die Anlage als Neukunde')).toBeTruthy();
    const value = (label: string) =>
      within(details).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? '';
    expect(value('Firmenname')).toBe('Sanitär Becker GmbH & Co. KG');
    expect(value('Straße')).toBe('Ringstraße');
    expect(value('Hausnummer')).toBe('12a');
    expect(value('Postleitzahl')).toBe('50667');
    expect(value('Ort')).toBe('Köln');
    expect(value('Land')).toBe('Deutschland');
    expect(value('E-Mail der Firma')).toBe('buchhaltung@becker.example');
    expect(value('Telefon der Firma')).toBe('+49 221 555012');
    expect(value('Fax')).toBe('–');
    expect(value('Website')).toBe('www.becker-sanitaer.example');
    expect(value('USt-IdNr.')).toBe('DE123456789');
    expect(value('Steuernummer')).toBe('215/5812/1234');
    expect(within(details).getByText('Ansprechpartner')).toBeTruthy();
    expect(value('Name')).toBe('Erika Einkauf');
    expect(value('Nachricht')).toBe('Bitte rufen Sie vormittags an.');
    expect(within(details).getByRole('button', { name: 'Firmendaten kopieren' })).toBeTruthy();
  });

  it('the clerk enters the customer number beside the data and approves: one PUT', async () => {
    const { user, sent } = renderPage([becker]);
    await user.click(await screen.findByRole('button', { name: 'Kunde Sanitär Becker bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde bearbeiten – Sanitär Becker' });
    expect(within(dialog).getByTestId('new-customer-details')).toBeTruthy();
    // The page's status filter has the same option: choose it in the dialog's own list.
    const status = within(dialog).getByRole('combobox', { name: 'Status' });
    await user.click(status);
    await waitFor(() => expect(document.getElementById(status.getAttribute('aria-controls') ?? '')).toBeTruthy());
    const options = document.getElementById(status.getAttribute('aria-controls')!)!;
    await user.click(within(options).getByRole('option', { name: 'Freigegeben', hidden: true }));
    await user.type(within(dialog).getByLabelText(fieldLabel('Kundennummer')), 'BK-2001');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(sent.find((r) => r.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/v1/SupplierCustomers/31',
      body: { relationStatusId: RelationStatus.Approved, comments: null, supplierCustomerNumber: 'BK-2001' },
    });
  });

  it('shows no company-data block for a customer without such data', async () => {
    const { user } = renderPage([mueller]);
    await user.click(await screen.findByRole('button', { name: 'Kunde Sanitär Müller bearbeiten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Kunde bearbeiten – Sanitär Müller' });
    expect(within(dialog).queryByTestId('new-customer-details')).toBeNull();
    expect(within(dialog).queryByText('Firmendaten für die Anlage als Neukunde')).toBeNull();
    expect(within(dialog).queryByText('Neukunde')).toBeNull();
  });
});
