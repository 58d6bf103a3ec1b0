import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderWithApp } from '../../test/render';
import { toast } from '../../lib/toast';
import { Toaster } from './Toaster';

afterEach(() => act(() => toast.dismissAll()));

const region = () => screen.getByTestId('toasts');

describe('Toaster (the app’s toasts on screen)', () => {
  it('shows a success toast as a status message in the live region', async () => {
    renderWithApp(<Toaster />);
    expect(region().getAttribute('aria-live')).toBe('polite');
    act(() => void toast.success('Warenkorb gespeichert'));
    const shown = await within(region()).findByText('Warenkorb gespeichert');
    expect(shown.closest('[role="status"]')).not.toBeNull();
  });

  it('shows an error as an alert, with its title', async () => {
    renderWithApp(<Toaster />);
    act(() => void toast.error('Die Bestellung wurde nicht übermittelt.', { title: 'Fehler' }));
    const alert = await within(region()).findByRole('alert');
    expect(alert.textContent).toContain('Fehler');
    expect(alert.textContent).toContain('Die Bestellung wurde nicht übermittelt.');
  });

  it('closes a toast with its German close button', async () => {
    const { user } = renderWithApp(<Toaster />);
    act(() => void toast.info('Neue Version verfügbar'));
    await within(region()).findByText('Neue Version verfügbar');
    await user.click(within(region()).getByRole('button', { name: 'Meldung schließen' }));
    await waitFor(() => expect(within(region()).queryByText('Neue Version verfügbar')).toBeNull(), {
      timeout: 3000,
    });
  });

  it('shows at most five toasts and counts the waiting ones ("2 weitere Meldungen")', async () => {
    renderWithApp(<Toaster />);
    act(() => void toast.neutral('Meldung 1'));
    await within(region()).findByText('Meldung 1');
    act(() => {
      for (let n = 2; n <= 7; n++) toast.neutral(`Meldung ${n}`);
    });
    await within(region()).findByText('Meldung 5');
    expect(within(region()).queryByText('Meldung 6')).toBeNull();
    expect(screen.getByTestId('toasts-hidden-count').textContent).toBe('2 weitere Meldungen');
  });
});
