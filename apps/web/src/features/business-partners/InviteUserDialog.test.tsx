import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { passwordTexts, Role } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi, problem } from '../../test/fake-api';
import { fieldLabel, renderWithApp } from '../../test/render';
import { InviteUserDialog } from './InviteUserDialog';

afterEach(() => act(() => toast.dismissAll()));

function renderDialog(inviter: Role = Role.Administrator) {
  const onClose = vi.fn();
  const view = renderWithApp(<InviteUserDialog opened onClose={onClose} inviter={inviter} />, { toasts: true });
  const field = (name: string) => screen.getByLabelText(fieldLabel(name));
  const invite = () => view.user.click(screen.getByRole('button', { name: 'Einladen' }));
  return { ...view, onClose, field, invite };
}

const toasts = () => screen.getByTestId('toasts');
const roleOptions = () =>
  within(screen.getByLabelText(fieldLabel('Rolle')))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('InviteUserDialog (Benutzer einladen)', () => {
  it('offers support staff only buyers and sellers, administrators every role', () => {
    renderDialog(Role.Support);
    expect(roleOptions()).toEqual(['Einkäufer', 'Verkäufer']);
  });

  it('refuses a bad e-mail address in German and sends nothing', async () => {
    const sent = fakeApi(() => ({ status: 201, body: {} }));
    const { user, field, invite } = renderDialog();
    expect(roleOptions()).toContain('Plattformbetreiber');
    await user.type(field('E-Mail-Adresse'), 'kein-at-zeichen');
    await invite();
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends the invitation with the chosen role and the partner numbers as a list, confirms and closes', async () => {
    const sent = fakeApi(({ body }) => ({ status: 201, body: { ...(body as object), userId: 'u-1' } }));
    const { user, field, invite, onClose } = renderDialog();
    await user.type(field('E-Mail-Adresse'), ' neu@example.com ');
    await user.type(field('Vorname'), 'Jana');
    await user.type(field('Nachname'), 'Kühn');
    await user.selectOptions(field('Rolle'), 'Verkäufer');
    await user.type(field('Geschäftspartnernummern'), '200001, 200002;200003');
    await invite();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await within(toasts()).findByText(passwordTexts.invited('neu@example.com'))).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/Users/Invitations',
        body: {
          email: 'neu@example.com',
          firstName: 'Jana',
          lastName: 'Kühn',
          role: Role.Seller,
          businessPartnerNumbers: ['200001', '200002', '200003'],
        },
      },
    ]);
  });

  it('says at the address that it is taken (409), and stays open without a toast', async () => {
    fakeApi(() => problem(409, 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto.'));
    const { user, field, invite, onClose } = renderDialog();
    await user.type(field('E-Mail-Adresse'), 'einkauf@example.com');
    await invite();
    expect(await screen.findByText('Zu dieser E-Mail-Adresse gibt es bereits ein Konto.')).toBeTruthy();
    expect(within(toasts()).queryByRole('alert')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows the server’s message for an unknown partner number under that field', async () => {
    fakeApi(() =>
      problem(400, 'Ungültige Eingabe', [
        { field: 'body.businessPartnerNumbers', message: 'Geschäftspartner 999999 gibt es nicht.' },
      ]),
    );
    const { user, field, invite } = renderDialog();
    await user.type(field('E-Mail-Adresse'), 'neu@example.com');
    await user.type(field('Geschäftspartnernummern'), '999999');
    await invite();
    expect(await screen.findByText('Geschäftspartner 999999 gibt es nicht.')).toBeTruthy();
  });

  it('shows another failure as a German error toast', async () => {
    fakeApi(() => ({ status: 500 }));
    const { user, field, invite } = renderDialog();
    await user.type(field('E-Mail-Adresse'), 'neu@example.com');
    await invite();
    const alert = await within(toasts()).findByRole('alert');
    expect(alert.textContent).toContain('Die Einladung konnte nicht versandt werden.');
  });
});
