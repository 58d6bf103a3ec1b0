import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router';
import { quickOrderMessages } from '@shk/contracts';
import type { QuickOrderLine, QuickOrderResponse } from '../../api/quick-order';
import { toast } from '../../lib/toast';
import { fakeApi, problem, type SentRequest } from '../../test/fake-api';
import { fieldLabel, renderWithApp, testProfile } from '../../test/render';
import QuickOrderPage from './QuickOrderPage';

afterEach(() => act(() => toast.dismissAll()));

const offer = (id: string, supplierName: string, unitPrice: number | null) => ({
  productInstanceId: id,
  supplierBusinessPartnerNo: id.split('~')[0],
  supplierName,
  articleNumber: id.split('~')[1],
  gtin: null,
  productName: 'Eckventil ½″',
  unitPrice,
  priceBasis: 1,
  unit: 'C62',
  minOrderQuantity: 1,
  quantityInterval: null,
  orderableStatus: 1,
});

const line = (
  changes: Partial<QuickOrderLine> & Pick<QuickOrderLine, 'line' | 'input' | 'status'>,
): QuickOrderLine => ({
  articleNumber: changes.input.split(';')[0],
  requestedQuantity: 2,
  quantity: 2,
  message: null,
  productInstanceId: null,
  candidates: [],
  ...changes,
});

/** The preview: one line found, one with two offers to choose from, one unknown article. */
const preview: QuickOrderResponse = {
  confirmed: false,
  addedCount: 0,
  lines: [
    line({
      line: 1,
      input: 'NB-4711;2',
      status: 'Added',
      productInstanceId: '200001~NB-4711',
      candidates: [offer('200001~NB-4711', 'Großhandel Nord', 12.4)],
    }),
    line({
      line: 2,
      input: 'EV-15;5',
      status: 'Ambiguous',
      requestedQuantity: 5,
      quantity: 5,
      candidates: [offer('200001~EV-15', 'Großhandel Nord', 9.9), offer('200002~EV-15', 'Bädermarkt Süd', 8.5)],
    }),
    line({ line: 3, input: 'GIBTSNICHT;1', status: 'NotFound', message: 'Artikel nicht gefunden.' }),
  ],
};

function Cart() {
  return <p>{`Warenkorb ${useParams().id}`}</p>;
}

function renderPage() {
  return renderWithApp(
    <Routes>
      <Route path="/schnellerfassung" element={<QuickOrderPage />} />
      <Route path="/warenkorb/:id" element={<Cart />} />
    </Routes>,
    { path: '/schnellerfassung?cartId=7', toasts: true, profile: testProfile() },
  );
}

const answer = (request: SentRequest) => {
  const body = request.body as { confirm?: boolean };
  if (body?.confirm) return { body: { ...preview, confirmed: true, addedCount: 2 } };
  return { body: preview };
};

const textArea = () => screen.getByLabelText(fieldLabel('Artikelnummern und Mengen'));

describe('QuickOrderPage (Schnellerfassung)', () => {
  it('checks nothing while the field is empty', () => {
    fakeApi(answer);
    renderPage();
    expect(screen.getByRole('button', { name: 'Prüfen' }).matches(':disabled')).toBe(true);
  });

  it('sends the pasted lines for a preview and shows each line’s German status', async () => {
    const sent = fakeApi(answer);
    const { user } = renderPage();
    await user.type(textArea(), 'NB-4711;2{Enter}EV-15;5{Enter}GIBTSNICHT;1');
    await user.click(screen.getByRole('button', { name: 'Prüfen' }));
    const table = await screen.findByRole('table', { name: 'Vorschau der Schnellerfassung' });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/MultiCarts/7/QuickOrder',
        body: { text: 'NB-4711;2\nEV-15;5\nGIBTSNICHT;1', confirm: false },
      },
    ]);
    expect(within(table).getByText(quickOrderMessages.statusLabels.Added)).toBeTruthy();
    expect(within(table).getByText(quickOrderMessages.statusLabels.Ambiguous)).toBeTruthy();
    expect(within(table).getByText(quickOrderMessages.statusLabels.NotFound)).toBeTruthy();
    expect(within(table).getByText('Artikel nicht gefunden.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '1 Position in den Warenkorb legen' })).toBeTruthy();
  });

  it('adds the found line and the chosen offer of the ambiguous one, then opens the cart', async () => {
    const sent = fakeApi(answer);
    const { user } = renderPage();
    await user.type(textArea(), 'NB-4711;2{Enter}EV-15;5{Enter}GIBTSNICHT;1');
    await user.click(screen.getByRole('button', { name: 'Prüfen' }));
    // jsdom never ends the dropdown's opening transition, so its options count as hidden for the role query.
    await user.click(await screen.findByRole('combobox', { name: 'Angebot für Zeile 2' }));
    await user.click(await screen.findByRole('option', { name: /Bädermarkt Süd/, hidden: true }));
    await user.click(screen.getByRole('button', { name: '2 Positionen in den Warenkorb legen' }));
    expect(await screen.findByText('Warenkorb 7')).toBeTruthy();
    expect(await within(screen.getByTestId('toasts')).findByText(quickOrderMessages.added(2))).toBeTruthy();
    expect(sent[1]).toEqual({
      method: 'POST',
      path: '/v1/MultiCarts/7/QuickOrder',
      body: {
        lines: [
          { articleNumber: 'NB-4711', quantity: 2, productInstanceId: '200001~NB-4711' },
          { articleNumber: 'EV-15', quantity: 5, productInstanceId: '200002~EV-15' },
        ],
        confirm: true,
      },
    });
  });

  it('shows a refused preview as a German error toast with the server’s title', async () => {
    fakeApi(() => problem(400, quickOrderMessages.tooManyLines(500)));
    const { user } = renderPage();
    await user.type(textArea(), 'NB-4711;2');
    await user.click(screen.getByRole('button', { name: 'Prüfen' }));
    const alert = await within(screen.getByTestId('toasts')).findByRole('alert');
    expect(alert.textContent).toContain(quickOrderMessages.tooManyLines(500));
    await waitFor(() => expect(screen.queryByRole('table')).toBeNull());
  });
});
