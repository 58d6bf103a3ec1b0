import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { cartMessages, limits, messages, ProblemType } from '@shk/contracts';
import { renderWithApp } from '../../test/render';
import { ApiError } from '../../api/problem';
import { CartNameModal } from './CartNameModal';

function renderModal(onSubmit: (name: string) => Promise<unknown> = async () => undefined) {
  const onClose = vi.fn();
  const submit = vi.fn(onSubmit);
  const view = renderWithApp(
    <CartNameModal opened onClose={onClose} title="Neuer Warenkorb" submitLabel="Anlegen" onSubmit={submit} />,
  );
  return { ...view, onClose, submit, field: () => screen.getByRole('textbox', { name: /Name des Warenkorbs/ }) };
}

describe('CartNameModal (react-hook-form + the contracts’ zod schema, German messages)', () => {
  it('refuses an empty name with "Pflichtfeld" and does not submit', async () => {
    const { user, submit } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));
    expect(await screen.findByText(messages.required)).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
  });

  it('names the forbidden characters and the length limit while typing', async () => {
    const { user, field } = renderModal();
    await user.type(field(), 'Bad/Keller');
    expect(await screen.findByText(cartMessages.cartNamePattern)).toBeTruthy();
    await user.clear(field());
    await user.type(field(), 'x'.repeat(limits.cartName + 1));
    expect(await screen.findByText(messages.maxChars(limits.cartName))).toBeTruthy();
  });

  it('submits the trimmed name and closes', async () => {
    const { user, submit, onClose, field } = renderModal();
    await user.type(field(), '  Baustelle Müller (2)  ');
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(submit).toHaveBeenCalledWith('Baustelle Müller (2)');
  });

  it('shows the server’s German title on the field when the name exists already, and stays open', async () => {
    const title = 'Ein Warenkorb mit diesem Namen existiert bereits';
    const { user, onClose, field } = renderModal(() =>
      Promise.reject(
        new ApiError(400, { type: ProblemType.entityAlreadyExists, title, status: 400 } as ConstructorParameters<
          typeof ApiError
        >[1]),
      ),
    );
    await user.type(field(), 'Lager');
    await user.click(screen.getByRole('button', { name: 'Anlegen' }));
    expect(await screen.findByText(title)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
