import { useCallback, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { defaultRelationStatuses, relationMessages } from '@shk/contracts';
import { useRelations, type Relation } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ListSearchInput } from '../../ui/ListSearchInput';
import { Page } from '../../ui/Page';
import { parseStatusParam, RelationStatusBadge, RelationStatusFilter } from '../../ui/relation-status';
import { useUrlParam } from '../../ui/use-url-param';
import { CustomerEditDialog } from './CustomerEditDialog';
import { isPendingNewCustomer, NewCustomerBadge } from './NewCustomerDetails';

/** /meine-kunden – 'Meine Kunden': the customers of the seller's supplier. */
export default function MyCustomersPage() {
  const [statusParam, setStatusParam] = useUrlParam('status');
  const [termParam, setTermParam] = useUrlParam('suche');
  const status = parseStatusParam(statusParam, defaultRelationStatuses);
  const term = termParam ?? '';
  const list = useRelations({ statusIds: status === null ? [] : [status], name: term });
  const [editing, setEditing] = useState<Relation | null>(null);
  const commitTerm = useCallback((value: string) => setTermParam(value.trim() ? value : null), [setTermParam]);

  const columns: DataTableColumn<Relation>[] = [
    {
      key: 'name',
      header: 'Kundenname',
      sortValue: (r) => r.buyer.name,
      render: (r) => (
        <Group gap={6} wrap="wrap">
          <Text fw={600} size="sm">
            {r.buyer.name}
          </Text>
          {isPendingNewCustomer(r) && <NewCustomerBadge />}
        </Group>
      ),
    },
    { key: 'customerNumber', header: 'Kundennummer', render: (r) => r.supplierCustomerNumber ?? '–' },
    { key: 'vatId', header: 'USt-IdNr.', render: (r) => r.buyer.vatId ?? '–', nowrap: true },
    { key: 'bpNumber', header: 'Geschäftspartnernummer', render: (r) => r.buyer.bpNumber, nowrap: true },
    {
      key: 'status',
      header: 'Status',
      sortValue: (r) => r.relationStatusId,
      render: (r) => <RelationStatusBadge statusId={r.relationStatusId} />,
    },
    {
      key: 'edit',
      header: 'Bearbeiten',
      nowrap: true,
      render: (r) => (
        <Button size="xs" variant="light" onClick={() => setEditing(r)} aria-label={`Kunde ${r.buyer.name} bearbeiten`}>
          Bearbeiten
        </Button>
      ),
    },
  ];

  // After a save the list refreshes; keep the dialog on the fresh relation while it is open.
  const current = editing ? (list.data?.items.find((r) => r.id === editing.id) ?? editing) : null;

  return (
    <Page title="Meine Kunden">
      <Group align="flex-end" gap="md" wrap="wrap">
        <ListSearchInput
          label="Suche"
          placeholder="Name, Geschäftspartner- oder Kundennummer"
          value={term}
          onCommit={commitTerm}
          w={{ base: '100%', sm: 360 }}
        />
        <RelationStatusFilter
          statuses={defaultRelationStatuses}
          value={status}
          onChange={(value) => setStatusParam(value === null ? null : String(value))}
        />
      </Group>
      {list.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(list.error, 'Die Kunden konnten nicht geladen werden.')}
        </Alert>
      ) : (
        <DataTable
          label="Kunden"
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(r) => r.id}
          initialSort={{ key: 'name', direction: 'asc' }}
          emptyText={relationMessages.noResults}
          loading={list.isPending}
          testId="customers-table"
          minWidth={860}
        />
      )}
      <CustomerEditDialog relation={current} onClose={() => setEditing(null)} />
    </Page>
  );
}
