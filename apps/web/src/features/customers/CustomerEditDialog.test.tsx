import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { messages, RelationStatus, relationMessages, Role } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi, problem } from '../../test/fake-api';
import type { Relation } from '../../api/relations';
import { testRelation as relation } from '../../test/relation';
import { fieldLabel, renderWithApp, testProfile } from '../../test/render';
import { CustomerEditDialog } from './CustomerEditDialog';

afterEach(() => act(() => toast.dismissAll()));

function renderDialog(shown: Relation) {
  const onClose = vi.fn();
  const view = renderWithApp(<CustomerEditDialog relation={shown} onClose={onClose} />, {
    toasts: true,
    profile: testProfile({ role: Role.Seller, currentBpNumber: '200001' }),
  });
  const field = (name: string) => screen.getByLabelText(fieldLabel(name));
  // jsdom never ends the dropdown's opening transition, so its options count as hidden for the role query.
  const choose = async (status: string) => {
    await view.user.click(screen.getByRole('combobox', { name: 'Status' }));
    await view.user.click(await screen.findByRole('option', { name: status, hidden: true }));
  };
  const save = () => view.user.click(screen.getByRole('button', { name: 'Speichern' }));
  return { ...view, onClose, field, choose, save };
}

const toasts = () => screen.getByTestId('toasts');
const updated = { status: 200, body: relation() };

describe('CustomerEditDialog (Kunde bearbeiten)', () => {
  it('shows the customer’s data and refuses approving without a customer number', async () => {
    const sent = fakeApi(() => updated);
    const { choose, save } = renderDialog(relation());
    expect(screen.getByText('Sanitär Müller GmbH')).toBeTruthy();
    expect(screen.getByText('DE123456789')).toBeTruthy();
    await choose('Freigegeben');
    await save();
    expect(await screen.findByText(messages.required)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('approves with the customer number: PUT /v1/SupplierCustomers/17, German success toast, closes', async () => {
    const sent = fakeApi(() => updated);
    const { user, field, choose, save, onClose } = renderDialog(relation());
    await choose('Freigegeben');
    await user.type(field('Kundennummer'), ' K-4711 ');
    await save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await within(toasts()).findByText(relationMessages.statusUpdateSuccess('Sanitär Müller'))).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/v1/SupplierCustomers/17',
        body: { relationStatusId: RelationStatus.Approved, comments: null, supplierCustomerNumber: 'K-4711' },
      },
    ]);
  });

  it('rejecting asks for a reason, then for a confirmation, and sends the reason', async () => {
    const sent = fakeApi(() => updated);
    const { user, field, choose, save, onClose } = renderDialog(relation());
    await choose('Abgelehnt');
    await save();
    expect(await screen.findByText(messages.required)).toBeTruthy();
    await user.type(field('Begründung'), 'Kein Liefergebiet');
    await save();
    expect(await screen.findByText('Möchten Sie die Anfrage von Sanitär Müller wirklich ablehnen?')).toBeTruthy();
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.map((r) => r.body)).toEqual([
      { relationStatusId: RelationStatus.Rejected, comments: 'Kein Liefergebiet', supplierCustomerNumber: null },
    ]);
  });

  it('asks before changing a stored customer number', async () => {
    const sent = fakeApi(() => updated);
    const approved = relation({ relationStatusId: RelationStatus.Approved, supplierCustomerNumber: 'K-1' });
    const { user, field, save, onClose } = renderDialog(approved);
    await user.clear(field('Kundennummer'));
    await save();
    expect(await screen.findByText(messages.required)).toBeTruthy();
    await user.type(field('Kundennummer'), 'K-2');
    await save();
    expect(await screen.findByText('Möchten Sie die Kundennummer von „K-1“ in „K-2“ ändern?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.map((r) => r.body)).toEqual([
      { relationStatusId: RelationStatus.Approved, comments: null, supplierCustomerNumber: 'K-2' },
    ]);
  });

  it('removes an approved customer only with a reason (rejected, number dropped)', async () => {
    const sent = fakeApi(() => updated);
    const approved = relation({ relationStatusId: RelationStatus.Approved, supplierCustomerNumber: 'K-1' });
    const { user, onClose } = renderDialog(approved);
    await user.click(screen.getByRole('button', { name: 'Kunden entfernen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Bitte bestätigen' });
    await user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    expect(await within(confirm).findByText(messages.required)).toBeTruthy();
    await user.type(within(confirm).getByLabelText(fieldLabel('Begründung')), 'Geschäftsaufgabe');
    await user.click(within(confirm).getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.map((r) => r.body)).toEqual([
      { relationStatusId: RelationStatus.Rejected, comments: 'Geschäftsaufgabe', supplierCustomerNumber: null },
    ]);
  });

  it('shows a refused update as a German error toast with the server’s title and stays open', async () => {
    fakeApi(() => problem(409, 'Der Status wurde inzwischen geändert.'));
    const { user, field, choose, save, onClose } = renderDialog(relation());
    await choose('Freigegeben');
    await user.type(field('Kundennummer'), 'K-4711');
    await save();
    const alert = await within(toasts()).findByRole('alert');
    expect(alert.textContent).toContain('Der Status wurde inzwischen geändert.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
