import { useMemo, useState, type ReactNode } from 'react';
import { Center, Group, LoadingOverlay, Pagination, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import classes from './DataTable.module.css';

export type SortDirection = 'asc' | 'desc';

export interface DataTableColumn<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  /** Makes the column sortable (client side) by this value. */
  sortValue?: (row: Row) => string | number | null | undefined;
  /** Makes the column sortable by the server (by its key), for a table given `onSortChange`. */
  serverSortable?: boolean;
  /** Keeps the cell on one line (numbers, dates, buttons). */
  nowrap?: boolean;
}

export interface DataTableSort {
  key: string;
  direction: SortDirection;
}

export interface DataTableProps<Row> {
  /** Accessible name of the table. */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  initialSort?: DataTableSort;
  /**
   * Sorting by the server: the table shows the rows in the order given, marks `sort` and reports a header click here
   * (ascending first, a second click on the same column descending).
   */
  sort?: DataTableSort;
  onSortChange?: (sort: DataTableSort) => void;
  /** Shown instead of rows when there are none. */
  emptyText?: ReactNode;
  loading?: boolean;
  /** Rows per page; 0 shows all rows without pagination. */
  pageSize?: number;
  /** Below this width the table scrolls horizontally (wider than a phone; on a phone rows become cards). */
  minWidth?: number;
  testId?: string;
}

const collator = new Intl.Collator('de-DE', { numeric: true, sensitivity: 'base' });

function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** Rows ordered by a column's sortValue (German collation, empty values last). */
function sortRows<Row>(
  rows: readonly Row[],
  columns: readonly DataTableColumn<Row>[],
  sort: DataTableSort | null,
): Row[] {
  const column = sort && columns.find((c) => c.key === sort.key && c.sortValue);
  if (!sort || !column?.sortValue) return [...rows];
  const factor = sort.direction === 'asc' ? 1 : -1;
  const value = column.sortValue;
  return [...rows].sort((a, b) => factor * compare(value(a), value(b)));
}

/**
 * The column's sort state at a glance: an up-and-down mark on sortable columns not sorted by, one filled arrow in
 * the primary colour on the sorted column (up ascending, down descending).
 */
export function SortMark({ active, direction }: { active: boolean; direction: SortDirection }) {
  const shown = active ? direction : 'none';
  return (
    <svg
      width="10"
      height="12"
      viewBox="0 0 10 12"
      aria-hidden
      className={classes.sortMark}
      data-active={active || undefined}
      data-direction={shown}
    >
      {shown === 'asc' && <path d="M0 9h10L5 2z" />}
      {shown === 'desc' && <path d="M0 3h10L5 10z" />}
      {shown === 'none' && (
        <>
          <path d="M1 5h8L5 1z" />
          <path d="M1 7h8L5 11z" />
        </>
      )}
    </svg>
  );
}

/** Phones (below Mantine's sm breakpoint, 48em = 768 px): every row becomes a card of label – value lines. */
const STACKED_TABLE_QUERY = '(max-width: 47.99em)';

/**
 * The portal's list table: client-side sorting by column, empty state, loading overlay and pagination
 * (two pages either side of the current one, i.e. four around it). On a phone the rows are stacked cards
 * (each cell with its column's name), so no row scrolls sideways and its actions stay in view.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const {
    label,
    columns,
    rows,
    rowKey,
    emptyText = 'Keine Ergebnisse',
    loading = false,
    pageSize = 25,
    minWidth = 640,
    testId,
  } = props;
  const [ownSort, setOwnSort] = useState<DataTableSort | null>(props.initialSort ?? null);
  const { onSortChange } = props;
  const serverSorted = onSortChange !== undefined;
  const sort = serverSorted ? (props.sort ?? null) : ownSort;
  const sortable = (column: DataTableColumn<Row>) =>
    serverSorted ? Boolean(column.serverSortable) : column.sortValue !== undefined;
  const [page, setPage] = useState(1);
  const stacked = useMediaQuery(STACKED_TABLE_QUERY, false, { getInitialValueInEffect: false });
  // Display changes drop the implicit table roles in some browsers: the stacked table names them.
  const role = (name: string) => (stacked ? name : undefined);

  const sorted = useMemo(
    () => (serverSorted ? [...rows] : sortRows(rows, columns, sort)),
    [serverSorted, rows, columns, sort],
  );
  const totalPages = pageSize > 0 ? Math.max(1, Math.ceil(sorted.length / pageSize)) : 1;
  const currentPage = Math.min(page, totalPages);
  const visible = pageSize > 0 ? sorted.slice((currentPage - 1) * pageSize, currentPage * pageSize) : sorted;

  const toggleSort = (key: string) => {
    const next: DataTableSort = { key, direction: sort?.key === key && sort.direction === 'asc' ? 'desc' : 'asc' };
    if (onSortChange) onSortChange(next);
    else setOwnSort(next);
    setPage(1);
  };

  return (
    <Stack gap="md" pos="relative" data-testid={testId}>
      <LoadingOverlay visible={loading} zIndex={10} overlayProps={{ blur: 1 }} />
      <Table.ScrollContainer minWidth={stacked ? 0 : minWidth}>
        <Table
          striped={!stacked}
          highlightOnHover={!stacked}
          verticalSpacing="sm"
          aria-label={label}
          className={classes.table}
          data-stacked={stacked || undefined}
          role={role('table')}
        >
          <Table.Thead role={role('rowgroup')}>
            <Table.Tr role={role('row')}>
              {columns.map((column) => {
                const active = sort?.key === column.key;
                return (
                  <Table.Th
                    key={column.key}
                    role={role('columnheader')}
                    aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {sortable(column) ? (
                      <UnstyledButton className={classes.sortButton} onClick={() => toggleSort(column.key)}>
                        <Group gap={6} wrap="nowrap">
                          {column.header}
                          <SortMark active={active} direction={sort?.direction ?? 'asc'} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody role={role('rowgroup')}>
            {visible.map((row) => (
              <Table.Tr key={rowKey(row)} role={role('row')}>
                {columns.map((column) => (
                  <Table.Td
                    key={column.key}
                    role={role('cell')}
                    data-label={typeof column.header === 'string' ? column.header : undefined}
                    style={column.nowrap && !stacked ? { whiteSpace: 'nowrap' } : undefined}
                  >
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!loading && rows.length === 0 && (
        <Center py="lg">{typeof emptyText === 'string' ? <Text c="dimmed">{emptyText}</Text> : emptyText}</Center>
      )}
      {totalPages > 1 && (
        <Group justify="center">
          <Pagination value={currentPage} total={totalPages} siblings={2} onChange={setPage} />
        </Group>
      )}
    </Stack>
  );
}
