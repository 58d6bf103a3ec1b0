import type { ReactNode } from 'react';
import { Alert, Group, Pagination, Text } from '@mantine/core';
import { limits } from '@shk/contracts';
import { DataTable, type DataTableProps } from './DataTable';

/** The German words for one and for several rows of a list ('Bestellung', 'Bestellungen'). */
export interface ListNoun {
  one: string;
  many: string;
}

/** '1 Bestellung', '12 Bestellungen'. */
const countText = (count: number, noun: ListNoun) => `${count} ${count === 1 ? noun.one : noun.many}`;

/**
 * Paging of a list the server pages: zero-based page in the UI, at most `limits.maxPages` pages, two page buttons
 * either side of the current one. Hidden while there is only one page.
 */
function ListPagination({
  page,
  totalPages,
  onChange,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}) {
  const total = Math.min(totalPages, limits.maxPages);
  if (total <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={total}
        value={page + 1}
        onChange={(value) => onChange(value - 1)}
        siblings={2}
        getControlProps={(control) => ({
          'aria-label': {
            first: 'Erste Seite',
            previous: 'Vorherige Seite',
            next: 'Nächste Seite',
            last: 'Letzte Seite',
          }[control],
        })}
        getItemProps={(p) => ({ 'aria-label': `Seite ${p}` })}
      />
    </Group>
  );
}

export interface ListScaffoldProps<Row> extends Omit<DataTableProps<Row>, 'pageSize'> {
  /** Filters above the table (selects, segmented controls). */
  filters?: ReactNode;
  /** Shown as a red alert above the table while set (the list failed to load). */
  error?: ReactNode;
  /** Rows matching the filters on all pages; the count line is shown once it is known. */
  totalCount?: number;
  noun: ListNoun;
  /** Zero-based page shown; the server pages the rows. */
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}

/**
 * The portal's list page body for a list the server pages: filters, error, the table (stacked cards on a phone,
 * sorting, empty state and loading overlay from DataTable), the count ('12 Bestellungen') and the paging.
 */
export function ListScaffold<Row>({
  filters,
  error,
  totalCount,
  noun,
  page,
  totalPages,
  onPageChange,
  ...table
}: ListScaffoldProps<Row>) {
  return (
    <>
      {filters}
      {error && <Alert color="red">{error}</Alert>}
      <DataTable {...table} pageSize={0} />
      {totalCount !== undefined && (
        <Text size="sm" c="dimmed">
          {countText(totalCount, noun)}
        </Text>
      )}
      <ListPagination page={page} totalPages={totalPages} onChange={onPageChange} />
    </>
  );
}
