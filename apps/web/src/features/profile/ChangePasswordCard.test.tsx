import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { passwordRules, passwordTexts } from '@shk/contracts';
import { toast } from '../../lib/toast';
import { fakeApi, problem } from '../../test/fake-api';
import { fieldLabel, renderWithApp } from '../../test/render';
import { ChangePasswordCard } from './ChangePasswordCard';

afterEach(() => act(() => toast.dismissAll()));

const NEW = 'Ein langer Satz als Passwort';

function renderCard() {
  const view = renderWithApp(<ChangePasswordCard email="einkauf@example.com" />, { toasts: true });
  const fill = async (current: string, next: string, repeat: string) => {
    for (const [name, value] of [
      ['Aktuelles Passwort', current],
      ['Neues Passwort', next],
      ['Neues Passwort wiederholen', repeat],
    ] as const) {
      const input = screen.getByLabelText(fieldLabel(name), { selector: 'input' });
      if (value) await view.user.type(input, value);
    }
  };
  const submit = () => view.user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
  return { ...view, fill, submit };
}

const toasts = () => screen.getByTestId('toasts');

describe('ChangePasswordCard (Passwort ändern)', () => {
  it('checks the fields in German before anything is sent', async () => {
    const sent = fakeApi(() => ({ status: 204 }));
    const { fill, submit } = renderCard();
    await fill('', 'kurz', 'anders');
    await submit();
    expect(await screen.findByText(passwordTexts.currentRequired)).toBeTruthy();
    expect(screen.getByText(passwordTexts.tooShort)).toBeTruthy();
    expect(screen.getByText(passwordTexts.mismatch)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends PUT /v1/UserProfile/Password, says so in German and empties the fields', async () => {
    const sent = fakeApi(() => ({ status: 204 }));
    const { fill, submit } = renderCard();
    await fill('altes Passwort 1', NEW, NEW);
    await submit();
    expect(await within(toasts()).findByText(passwordTexts.changed)).toBeTruthy();
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/v1/UserProfile/Password',
        body: { currentPassword: 'altes Passwort 1', newPassword: NEW, newPasswordRepeat: NEW },
      },
    ]);
    for (const input of screen.getAllByLabelText(/Passwort/, { selector: 'input[type=password]' })) {
      expect((input as HTMLInputElement).value).toBe('');
    }
  });

  it('shows the server’s German field message under the field (wrong current password), no toast', async () => {
    fakeApi(() =>
      problem(400, 'Ungültige Eingabe', [{ field: 'body.currentPassword', message: passwordTexts.currentWrong }]),
    );
    const { fill, submit } = renderCard();
    await fill('falsch falsch', NEW, NEW);
    await submit();
    expect(await screen.findByText(passwordTexts.currentWrong)).toBeTruthy();
    expect(within(toasts()).queryByRole('alert')).toBeNull();
  });

  it('shows any other failure as a German error toast with the server’s title', async () => {
    fakeApi(() => problem(503, 'Der Dienst ist vorübergehend nicht erreichbar.'));
    const { fill, submit } = renderCard();
    await fill('altes Passwort 1', NEW, NEW);
    await submit();
    const alert = await within(toasts()).findByRole('alert');
    expect(alert.textContent).toContain('Der Dienst ist vorübergehend nicht erreichbar.');
  });

  it('limits the new password to the maximum length', () => {
    renderCard();
    const input = screen.getByLabelText(fieldLabel('Neues Passwort'), { selector: 'input' });
    expect(input.getAttribute('maxlength')).toBe(String(passwordRules.maxLength));
  });
});
