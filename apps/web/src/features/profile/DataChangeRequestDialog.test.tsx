import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { messages } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi, problem } from '../../test/fake-api';
import { fieldLabel, renderWithApp } from '../../test/render';
import { DataChangeRequestDialog } from './DataChangeRequestDialog';

afterEach(() => act(() => toast.dismissAll()));

function renderDialog() {
  const onClose = vi.fn();
  const view = renderWithApp(<DataChangeRequestDialog opened onClose={onClose} defaultEmail="einkauf@example.com" />, {
    toasts: true,
  });
  const field = (name: string) => screen.getByLabelText(fieldLabel(name));
  const send = () => view.user.click(screen.getByRole('button', { name: 'Anfrage senden' }));
  return { ...view, onClose, field, send };
}

const toasts = () => screen.getByTestId('toasts');

describe('DataChangeRequestDialog (Änderung der Firmendaten beantragen)', () => {
  it('prefills the reply address and refuses an empty message and a bad address in German', async () => {
    const sent = fakeApi(() => ({ status: 201 }));
    const { user, field, send } = renderDialog();
    expect((field('E-Mail-Adresse') as HTMLInputElement).value).toBe('einkauf@example.com');
    await user.clear(field('E-Mail-Adresse'));
    await user.type(field('E-Mail-Adresse'), 'keine-adresse');
    await send();
    expect(await screen.findByText(messages.required)).toBeTruthy();
    expect(screen.getByText(messages.checkInput)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends the message with the address (no phone: null), confirms in German and closes', async () => {
    const sent = fakeApi(() => ({ status: 201 }));
    const { user, field, send, onClose } = renderDialog();
    await user.type(field('Nachricht'), 'Bitte die neue Anschrift eintragen: Hafenstraße 3.');
    await send();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await within(toasts()).findByText(messages.dataChangeSuccess)).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/SupportRequests/PartnerDataChange',
        body: {
          message: 'Bitte die neue Anschrift eintragen: Hafenstraße 3.',
          email: 'einkauf@example.com',
          phoneNumber: null,
        },
      },
    ]);
  });

  it('sends a phone number when given', async () => {
    const sent = fakeApi(() => ({ status: 201 }));
    const { user, field, send, onClose } = renderDialog();
    await user.type(field('Nachricht'), 'Neue Telefonnummer');
    await user.type(field('Telefonnummer'), '040 123456');
    await send();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0].body).toMatchObject({ phoneNumber: '040 123456' });
  });

  it('says in German that the request was not sent, and stays open', async () => {
    fakeApi(() => problem(500, 'Interner Fehler'));
    const { user, field, send, onClose } = renderDialog();
    await user.type(field('Nachricht'), 'Bitte ändern');
    await send();
    const alert = await within(toasts()).findByRole('alert');
    expect(alert.textContent).toContain(messages.dataChangeFailure);
    expect(onClose).not.toHaveBeenCalled();
  });
});
