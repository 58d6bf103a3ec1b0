import type { ReactNode } from 'react';
import { Center, Group, LoadingOverlay, Pagination, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { ChevronDownIcon } from './icons';

export type SortOrder = 'asc' | 'desc';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  /** Columns with sort=true can be clicked to sort by `key`. */
  sortable?: boolean;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
}

export interface TableSort {
  column: string;
  order: SortOrder;
}

interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  loading?: boolean;
  /** Shown instead of rows when there are none (spec default 'Keine Ergebnisse'). */
  emptyText?: string;
  sort?: TableSort;
  onSortChange?: (sort: TableSort) => void;
  /** Zero-based page shown in the UI (requests are one-based, spec); omit for no pagination. */
  page?: number;
  totalPages?: number;
  onPageChange?: (page: number) => void;
}

function SortHeader({ label, active, order, onClick }: { label: ReactNode; active: boolean; order: SortOrder; onClick: () => void }) {
  return (
    <UnstyledButton onClick={onClick} fw={600} fz="sm">
      <Group gap={4} wrap="nowrap">
        {label}
        <ChevronDownIcon size={14} style={{ opacity: active ? 1 : 0.3, transform: active && order === 'asc' ? 'rotate(180deg)' : undefined }} />
      </Group>
    </UnstyledButton>
  );
}

/** The portal's list table: columns, optional sorting, empty state and pagination (4 pages around the current one). */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, loading = false, emptyText = 'Keine Ergebnisse', sort, onSortChange } = props;
  const toggleSort = (column: string) =>
    onSortChange?.({ column, order: sort?.column === column && sort.order === 'asc' ? 'desc' : 'asc' });

  return (
    <Stack gap="md" pos="relative">
      <LoadingOverlay visible={loading} zIndex={10} overlayProps={{ blur: 1 }} />
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  w={column.width}
                  ta={column.align}
                  aria-sort={sort?.column === column.key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sortable && onSortChange ? (
                    <SortHeader
                      label={column.header}
                      active={sort?.column === column.key}
                      order={sort?.order ?? 'asc'}
                      onClick={() => toggleSort(column.key)}
                    />
                  ) : (
                    column.header
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key} ta={column.align}>{column.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!loading && rows.length === 0 && (
        <Center py="lg">
          <Text c="dimmed">{emptyText}</Text>
        </Center>
      )}
      {props.page !== undefined && props.totalPages !== undefined && props.totalPages > 1 && (
        <Group justify="center">
          <Pagination
            value={props.page + 1}
            total={props.totalPages}
            siblings={2}
            onChange={(value) => props.onPageChange?.(value - 1)}
            getControlProps={(control) => ({ 'aria-label': control === 'next' ? 'Nächste Seite' : control === 'previous' ? 'Vorherige Seite' : control })}
          />
        </Group>
      )}
    </Stack>
  );
}
