import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { limits, messages } from '@shk/contracts';
import type { CartItem, DeliveryAddress, MultiCart } from '../../api/carts';
import { toast } from '../../lib/toast';
import { fakeApi, problem, type SentRequest } from '../../test/fake-api';
import { renderWithApp, testProfile } from '../../test/render';
import { CartItemRow } from './CartItemRow';
import { cancelChangesSaved, useCartActions } from './use-cart-actions';

afterEach(() => {
  // The debounced 'changes saved' toast must not fire after the test's document is gone.
  cancelChangesSaved();
  act(() => toast.dismissAll());
});

const item: CartItem = {
  id: 5,
  articleNumber: 'A-100',
  supplierBusinessPartnerNo: '200001',
  productInstanceId: '200001~A-100',
  quantity: 2,
  projectId: null,
  comment: null,
  deliveryDate: null,
  deliveryAddressId: null,
  imageUrl: null,
  attachments: [],
  canUploadAttachment: true,
  supplierName: 'Großhandel Nord',
  netValue: 24.8,
  supplier: { name: 'Großhandel Nord', bpNumber: '200001', requiredOnboardingForm: false, hideAdditionalInfo: false },
  productName: 'Eckventil ½″',
  manufacturerPid: null,
  manufacturerId: null,
  brandName: 'Aqua',
  unitPrice: 12.4,
  priceBasis: 1,
  minOrderQuantity: 1,
  unit: 'C62',
  productOrderableStatus: 1,
};

const address: DeliveryAddress = {
  id: 9,
  companyName: 'Baustelle Hafen',
  contactPerson: null,
  additionalInfo: null,
  streetName: 'Hafenstraße',
  houseNumber: '3',
  postalCode: '20457',
  city: 'Hamburg',
  phoneNumber: null,
  countryCode: 'DE',
  isReadOnly: false,
};

const cart = {
  id: 1,
  name: 'Hauptwarenkorb',
  isDefault: true,
  projectId: null,
  deliveryAddressId: null,
  deliveryDate: null,
  items: [item],
} as unknown as MultiCart;

/** The row with the real cart actions (autosave through the API). */
function Row({ readOnly }: { readOnly?: boolean }) {
  const actions = useCartActions(cart.id);
  return (
    <CartItemRow
      cart={cart}
      item={item}
      addresses={[address]}
      units={new Map()}
      actions={actions}
      readOnly={readOnly}
    />
  );
}

/** The API of a cart page: projects to choose from, updates and removals answered as the server does. */
const cartApi = (request: SentRequest) => {
  if (request.path === '/v1/Projects') return { body: [] };
  if (request.method === 'DELETE') return { status: 204 };
  return { body: { ...item, ...(request.body as object) } };
};

const writes = (sent: SentRequest[]) => sent.filter((r) => r.method !== 'GET');
const saved = (changes: Partial<CartItem>) => ({
  method: 'PUT',
  path: '/v1/CartItems/5/properties',
  body: { id: 5, quantity: 2, projectId: null, deliveryDate: null, deliveryAddressId: null, comment: null, ...changes },
});

function renderRow(readOnly = false) {
  return renderWithApp(<Row readOnly={readOnly} />, { toasts: true, profile: testProfile() });
}

describe('CartItemRow (a cart line)', () => {
  it('saves a quantity chosen in the dropdown', async () => {
    const sent = fakeApi(cartApi);
    const { user } = renderRow();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Menge Eckventil ½″' }), '3');
    await waitFor(() => expect(writes(sent)).toEqual([saved({ quantity: 3 })]));
  });

  it('takes 10 or more through the input: refuses a non-number in German, saves a confirmed number', async () => {
    const sent = fakeApi(cartApi);
    const { user } = renderRow();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Menge Eckventil ½″' }), '10+');
    const input = await screen.findByRole('textbox', { name: 'Menge Eckventil ½″' });
    await user.clear(input);
    await user.type(input, 'zwölf{Enter}');
    expect(await screen.findByText(messages.wholeNumbers)).toBeTruthy();
    expect(writes(sent)).toEqual([]);
    await user.clear(input);
    await user.type(input, '25');
    await user.click(screen.getByRole('button', { name: 'Menge übernehmen' }));
    await waitFor(() => expect(writes(sent)).toEqual([saved({ quantity: 25 })]));
  });

  it('removes the line with DELETE /v1/CartItems/5', async () => {
    const sent = fakeApi(cartApi);
    const { user } = renderRow();
    await user.click(screen.getByRole('button', { name: 'Eckventil ½″ entfernen' }));
    await waitFor(() => expect(writes(sent)).toEqual([{ method: 'DELETE', path: '/v1/CartItems/5', body: undefined }]));
  });

  // A note over the limit is a long text for jsdom's autosizing textarea: more time than the other cases.
  it('saves the note on leaving the field (trimmed), and not while it is too long', { timeout: 60_000 }, async () => {
    const sent = fakeApi(cartApi);
    const { user } = renderRow();
    await user.click(screen.getByRole('button', { name: /Angaben zur Position bearbeiten/ }));
    const note = screen.getByRole('textbox', { name: 'Notiz', hidden: true });
    await user.click(note);
    await user.paste('x'.repeat(limits.cartItemNote + 1));
    await user.tab();
    expect(await screen.findByText(messages.maxChars(limits.cartItemNote))).toBeTruthy();
    expect(writes(sent)).toEqual([]);
    await user.clear(note);
    await user.type(note, '  Bitte an Tor 2 liefern  ');
    await user.tab();
    await waitFor(() => expect(writes(sent)).toEqual([saved({ comment: 'Bitte an Tor 2 liefern' })]));
  });

  it('saves a delivery address chosen for the line', async () => {
    const sent = fakeApi(cartApi);
    const { user } = renderRow();
    await user.click(screen.getByRole('button', { name: /Angaben zur Position bearbeiten/ }));
    await user.click(screen.getByRole('combobox', { name: 'Lieferadresse', hidden: true }));
    await user.click(await screen.findByRole('option', { name: /Baustelle Hafen/, hidden: true }));
    await waitFor(() => expect(writes(sent)).toEqual([saved({ deliveryAddressId: 9 })]));
  });

  it('shows a refused change as a German error toast with the server’s title', async () => {
    fakeApi((request) =>
      request.method === 'PUT' ? problem(400, 'Die Menge ist für diesen Artikel nicht erlaubt.') : cartApi(request),
    );
    const { user } = renderRow();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Menge Eckventil ½″' }), '4');
    const alert = await within(screen.getByTestId('toasts')).findByRole('alert');
    expect(alert.textContent).toContain('Die Menge ist für diesen Artikel nicht erlaubt.');
  });

  it('disables every control of a cart that may only be looked at', () => {
    fakeApi(cartApi);
    renderRow(true);
    // Disabled by the surrounding fieldset, as the browser does it.
    expect(screen.getByRole('combobox', { name: 'Menge Eckventil ½″' }).matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Eckventil ½″ entfernen' }).matches(':disabled')).toBe(true);
  });
});
