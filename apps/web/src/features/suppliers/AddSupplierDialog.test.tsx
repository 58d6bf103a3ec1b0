import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { messages, relationPartnerMessages } from '@shk/contracts';
import { renderWithApp } from '../../test/render';
import { AuthProvider } from '../../api/auth';
import type { AuthSession } from '../../api/auth-session';
import { AddSupplierDialog } from './AddSupplierDialog';

/*
 * The add-supplier dialog as a buyer walks it, against a stand-in for the API (the client sends every call through
 * the global fetch, replaced before it is created): list → partnership → buyer detail → add business partner →
 * confirm → edit → confirm → send. The API's own checks of the same rules are in relations-new-customer.test.ts.
 */
const calls = vi.hoisted(() => {
  const posted: unknown[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    if (url.pathname === '/v1/UserProfile')
      return json({
        id: 'u1',
        firstName: 'Erika',
        lastName: 'Einkauf',
        role: 1,
        email: 'einkauf@example.com',
        currentBpNumber: '100001',
        currentBpName: 'Sanitär Becker',
        idsContextId: null,
        availableBusinessPartners: [],
      });
    if (url.pathname === '/v1/BusinessPartners/Current')
      return json({
        businessPartnerNo: '100001',
        name: 'Sanitär Becker',
        officialCompanyName: 'Sanitär Becker GmbH',
        street: 'Ringstraße',
        houseNumber: '12a',
        postalCode: '50667',
        city: 'Köln',
        country: 'DE',
        contact: { eMail: 'info@becker.example', phoneNumber: '0221 555012' },
        faxNumber: null,
        website: null,
        taxNumber: null,
        organisationType: 0,
      });
    if (url.pathname === '/v1/SupplierCustomers/SuppliersWithoutRelation')
      return json([
        { bpNumber: '200006', name: 'Hydroline Heiztechnik', city: 'Kassel', requiredOnboardingForm: false },
      ]);
    if (url.pathname === '/v1/SupplierCustomers' && request.method === 'GET')
      return json({ items: [], currentPage: 1, pageSize: 100, totalCount: 0, totalPages: 0 });
    if (url.pathname === '/v1/SupplierCustomers' && request.method === 'POST') {
      posted.push(await request.json());
      return json({ bpNumber: '200006', name: 'Hydroline Heiztechnik' }, 201);
    }
    return json({ title: 'Nicht gefunden', status: 404 }, 404);
  }) as typeof fetch;
  return { posted };
});

// Mantine's autosizing textarea listens to font loading, which jsdom lacks.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

const signedInState = { isLoading: false, isAuthenticated: true };
const signedIn = {
  subscribe: () => () => undefined,
  getState: () => signedInState,
  signinRedirect: async () => undefined,
  signoutRedirect: async () => undefined,
  removeUser: async () => undefined,
} as unknown as AuthSession;

function renderDialog() {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Providers = ({ children }: { children: ReactNode }) => (
    <AuthProvider session={signedIn}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </AuthProvider>
  );
  const view = renderWithApp(
    <Providers>
      <AddSupplierDialog opened onClose={onClose} />
    </Providers>,
  );
  const dialog = () => screen.getByRole('dialog', { name: 'Lieferanten hinzufügen' });
  const step = () => within(dialog()).getByTestId('wizard-step').textContent;
  return { ...view, onClose, dialog, step };
}

describe('AddSupplierDialog: the business-partner steps of a request without customer number', () => {
  it('walks buyer detail, add, confirm, edit and confirm business partner, then sends the confirmed data', async () => {
    const { user, dialog, step, onClose } = renderDialog();
    await user.click(
      await within(dialog()).findByRole('button', { name: 'Hydroline Heiztechnik auswählen' }, { timeout: 10_000 }),
    );
    expect(step()).toBe('Schritt 2 von 3 · Partnerschaft wählen');

    await user.click(within(dialog()).getByText('Ich bin Neukunde'));
    expect(step()).toBe('Schritt 2 von 5 · Partnerschaft wählen');
    await user.click(within(dialog()).getByRole('button', { name: 'Weiter' }));

    // Buyer detail: the business partner as the portal knows it, and the contact person.
    await waitFor(() => expect(step()).toBe('Schritt 3 von 5 · Käuferdetails'));
    const detail = await within(dialog()).findByTestId('buyer-detail');
    expect(detail.textContent).toContain('Sanitär Becker GmbH');
    expect(detail.textContent).toContain('Ringstraße 12a, 50667 Köln');
    await user.click(within(dialog()).getByRole('button', { name: 'Weiter' }));

    // Add business partner: prefilled; the rules the API checks too.
    expect(step()).toBe('Schritt 4 von 5 · Geschäftspartner hinzufügen');
    const field = (label: string) => within(dialog()).getByRole('textbox', { name: new RegExp(`^${label}`) });
    expect((field('Firmenname') as HTMLInputElement).value).toBe('Sanitär Becker GmbH');
    await user.clear(field('Postleitzahl'));
    await user.type(field('Postleitzahl'), '5066');
    await user.clear(field('Ort'));
    await user.click(within(dialog()).getByRole('button', { name: 'Weiter' }));
    expect(await within(dialog()).findByText(relationPartnerMessages.postalCode)).toBeTruthy();
    expect(within(dialog()).getByText(messages.required)).toBeTruthy();
    expect(within(dialog()).getByText(relationPartnerMessages.taxIdentifier)).toBeTruthy();
    expect(step()).toBe('Schritt 4 von 5 · Geschäftspartner hinzufügen');

    await user.clear(field('Postleitzahl'));
    await user.type(field('Postleitzahl'), '50667');
    await user.type(field('Ort'), 'Köln');
    await user.type(field('Steuernummer'), '215/5812/1234');
    await user.click(within(dialog()).getByRole('button', { name: 'Weiter' }));

    // Confirm business partner, edit it, confirm again.
    await waitFor(() => expect(step()).toBe('Schritt 5 von 5 · Geschäftspartner bestätigen'));
    expect(within(dialog()).getByTestId('partner-summary').textContent).toContain('215/5812/1234');
    await user.click(within(dialog()).getByRole('button', { name: 'Bearbeiten' }));
    expect(step()).toBe('Schritt 4 von 5 · Geschäftspartner bearbeiten');
    expect((field('Steuernummer') as HTMLInputElement).value).toBe('215/5812/1234');
    await user.type(field('Website'), 'www.becker.example');
    await user.click(within(dialog()).getByRole('button', { name: 'Änderungen übernehmen' }));
    await waitFor(() => expect(step()).toBe('Schritt 5 von 5 · Geschäftspartner bestätigen'));
    expect(within(dialog()).getByTestId('partner-summary').textContent).toContain('www.becker.example');

    await user.click(within(dialog()).getByRole('button', { name: 'Anfrage senden' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.posted).toEqual([
      {
        supplierBpNumber: '200006',
        contactName: 'Erika Einkauf',
        contactEmail: 'einkauf@example.com',
        contactPhone: null,
        message: null,
        newCustomerPartner: {
          officialCompanyName: 'Sanitär Becker GmbH',
          street: 'Ringstraße',
          houseNumber: '12a',
          postalCode: '50667',
          city: 'Köln',
          email: 'info@becker.example',
          phoneNumber: '0221 555012',
          faxNumber: '',
          website: 'www.becker.example',
          vatId: '',
          taxNumber: '215/5812/1234',
        },
      },
    ]);
  }, 60_000);
});
