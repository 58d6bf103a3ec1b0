import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { limits, messages, RelationStatus, relationMessages } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi, problem } from '../../test/fake-api';
import { testRelation } from '../../test/relation';
import { fieldLabel, renderWithApp, testProfile } from '../../test/render';
import { CustomerNumberDialog } from './CustomerNumberDialog';

afterEach(() => act(() => toast.dismissAll()));

function renderDialog() {
  const onClose = vi.fn();
  const relation = testRelation({ relationStatusId: RelationStatus.CustomerIdRequested });
  const view = renderWithApp(<CustomerNumberDialog relation={relation} onClose={onClose} />, {
    toasts: true,
    profile: testProfile(),
  });
  const field = () => screen.getByLabelText(fieldLabel('Kundennummer'));
  const send = () => view.user.click(screen.getByRole('button', { name: 'Kundennummer senden' }));
  return { ...view, onClose, field, send };
}

const toasts = () => screen.getByTestId('toasts');

describe('CustomerNumberDialog (Kundennummer eingeben)', () => {
  it('names the supplier who asked, and refuses an empty or too long number in German', async () => {
    const sent = fakeApi(() => ({ body: testRelation() }));
    const { user, field, send } = renderDialog();
    expect(screen.getByText(/Großhandel Nord hat Ihre Kundennummer angefragt/)).toBeTruthy();
    await send();
    expect(await screen.findByText(messages.required)).toBeTruthy();
    await user.type(field(), 'x'.repeat(limits.supplierCustomerNumber + 1));
    expect(await screen.findByText(messages.maxChars(limits.supplierCustomerNumber))).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends the trimmed number in the path, confirms in German and closes', async () => {
    const sent = fakeApi(() => ({ body: testRelation() }));
    const { user, field, send, onClose } = renderDialog();
    await user.type(field(), '  K 4711  ');
    await send();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await within(toasts()).findByText(relationMessages.customerNumberSuccess)).toBeTruthy();
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/v1/SupplierCustomers/17/SupplierCustomerNumber/K%204711', body: undefined },
    ]);
  });

  it('says in German that the number was not sent, and stays open', async () => {
    fakeApi(() => problem(500, 'Interner Fehler'));
    const { user, field, send, onClose } = renderDialog();
    await user.type(field(), 'K-4711');
    await send();
    const alert = await within(toasts()).findByRole('alert');
    expect(alert.textContent).toContain(relationMessages.customerNumberFailure);
    expect(onClose).not.toHaveBeenCalled();
  });
});
