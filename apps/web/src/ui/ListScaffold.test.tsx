import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithApp } from '../test/render';
import type { DataTableColumn } from './DataTable';
import { ListScaffold, type ListScaffoldProps } from './ListScaffold';

interface Row {
  id: string;
  name: string;
  amount: number;
}

const columns: DataTableColumn<Row>[] = [
  { key: 'name', header: 'Name', render: (r) => r.name, sortValue: (r) => r.name },
  { key: 'amount', header: 'Menge', render: (r) => String(r.amount), sortValue: (r) => r.amount },
];

const rows: Row[] = [
  { id: '1', name: 'Ventil', amount: 3 },
  { id: '2', name: 'Armatur', amount: 12 },
  { id: '3', name: 'Übergangsstück', amount: 1 },
];

function renderList(props: Partial<ListScaffoldProps<Row>> = {}) {
  const onPageChange = vi.fn();
  const view = renderWithApp(
    <ListScaffold<Row>
      label="Artikel"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      noun={{ one: 'Artikel', many: 'Artikel' }}
      page={0}
      totalPages={1}
      onPageChange={onPageChange}
      {...props}
    />,
  );
  return { ...view, onPageChange };
}

const names = () =>
  within(screen.getByRole('table', { name: 'Artikel' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

describe('ListScaffold (table, count, paging, empty state)', () => {
  it('shows the rows, the count in German and no paging for one page', () => {
    renderList({ totalCount: 3, noun: { one: 'Bestellung', many: 'Bestellungen' } });
    expect(names()).toEqual(['Ventil', 'Armatur', 'Übergangsstück']);
    expect(screen.getByText('3 Bestellungen')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nächste Seite' })).toBeNull();
  });

  it('says "1 Bestellung" for a single row', () => {
    renderList({ rows: rows.slice(0, 1), totalCount: 1, noun: { one: 'Bestellung', many: 'Bestellungen' } });
    expect(screen.getByText('1 Bestellung')).toBeTruthy();
  });

  it('sorts by a column on click, German collation (Ü after A), and reverses on a second click', async () => {
    const { user } = renderList();
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Armatur', 'Übergangsstück', 'Ventil']);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['Ventil', 'Übergangsstück', 'Armatur']);
  });

  it('shows the empty text instead of rows, and no count before the total is known', () => {
    renderList({ rows: [], emptyText: 'Keine Bestellungen' });
    expect(screen.getByText('Keine Bestellungen')).toBeTruthy();
    expect(screen.queryByText(/Artikel$/)).toBeNull();
  });

  it('shows the error as an alert above the table', () => {
    renderList({ error: 'Die Bestellungen konnten nicht geladen werden.' });
    expect(screen.getByRole('alert').textContent).toContain('Die Bestellungen konnten nicht geladen werden.');
  });

  it('pages on the server: the buttons report the zero-based page asked for', async () => {
    const { user, onPageChange } = renderList({ page: 1, totalPages: 4 });
    expect(screen.getByRole('button', { name: 'Seite 2' }).getAttribute('data-active')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    await user.click(screen.getByRole('button', { name: 'Seite 1' }));
    expect(onPageChange).toHaveBeenLastCalledWith(0);
  });

  it('sorts on the server when asked to: keeps the given order, marks the sort and reports a header click', async () => {
    const onSortChange = vi.fn();
    const serverColumns = columns.map((c) => ({ ...c, sortValue: undefined, serverSortable: c.key === 'amount' }));
    const { user } = renderList({
      columns: serverColumns,
      sort: { key: 'amount', direction: 'asc' },
      onSortChange,
    });
    expect(names()).toEqual(['Ventil', 'Armatur', 'Übergangsstück']);
    expect(screen.queryByRole('button', { name: 'Name' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Menge' }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'Menge' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'amount', direction: 'desc' });
    expect(names()).toEqual(['Ventil', 'Armatur', 'Übergangsstück']);
  });
});
