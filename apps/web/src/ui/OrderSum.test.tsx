import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithApp } from '../test/render';
import { OrderSum } from './OrderSum';
import { formatDate } from './format';

/** Intl writes a narrow no-break space before '€'; compare the visible text. */
const visible = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

describe('money and dates as the user reads them (German formats)', () => {
  it('shows an order sum in euros with a decimal comma and thousands dots', () => {
    renderWithApp(<OrderSum value={1234.5} ordered={1234.5} />);
    expect(visible(screen.getByTestId('order-sum').textContent)).toBe('1.234,50 €');
    expect(screen.queryByTestId('order-sum-ordered')).toBeNull();
  });

  it('shows the ordered sum beneath as "bestellt" when a confirmation changed it', () => {
    renderWithApp(<OrderSum value={90} ordered={100.05} />);
    expect(visible(screen.getByTestId('order-sum').textContent)).toBe('90,00 €');
    expect(visible(screen.getByTestId('order-sum-ordered').textContent)).toBe('bestellt 100,05 €');
  });

  it('writes dates as D.M.YYYY in Berlin time (late UTC evening is already the next day)', () => {
    renderWithApp(<span data-testid="date">{formatDate('2026-03-31T22:30:00Z')}</span>);
    expect(screen.getByTestId('date').textContent).toBe('1.4.2026');
  });
});
