import { useCallback, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { allRelationStatuses, relationMessages } from '@shk/contracts';
import { useStaffRelations, type Relation } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ListSearchInput } from '../../ui/ListSearchInput';
import { Page } from '../../ui/Page';
import { parseStatusParam, RelationStatusBadge, RelationStatusFilter } from '../../ui/relation-status';
import { useUrlParam } from '../../ui/use-url-param';
import { useUserProfile } from '../../api/session';
import { InviteUserDialog } from './InviteUserDialog';
import { StatusTrailDialog } from './StatusTrailDialog';

/** /geschaeftspartner – every supplier–customer relation for staff, with the audit trail of each. */
export default function BusinessPartnersPage() {
  const [statusParam, setStatusParam] = useUrlParam('status');
  const [supplierParam, setSupplierParam] = useUrlParam('lieferant');
  const [customerParam, setCustomerParam] = useUrlParam('kunde');
  const status = parseStatusParam(statusParam, allRelationStatuses);
  const list = useStaffRelations({
    statusIds: status === null ? [] : [status],
    supplierBpNumber: supplierParam ?? '',
    customerBpNumber: customerParam ?? '',
  });
  const [trailFor, setTrailFor] = useState<Relation | null>(null);
  const [inviting, setInviting] = useState(false);
  const profile = useUserProfile();
  const commitSupplier = useCallback((value: string) => setSupplierParam(value.trim() || null), [setSupplierParam]);
  const commitCustomer = useCallback((value: string) => setCustomerParam(value.trim() || null), [setCustomerParam]);

  const columns: DataTableColumn<Relation>[] = [
    {
      key: 'supplierNumber',
      header: 'Lieferantennummer',
      sortValue: (r) => r.supplier.bpNumber,
      render: (r) => r.supplier.bpNumber,
      nowrap: true,
    },
    { key: 'supplierName', header: 'Lieferant', sortValue: (r) => r.supplier.name, render: (r) => r.supplier.name },
    {
      key: 'buyerNumber',
      header: 'Käufernummer',
      sortValue: (r) => r.buyer.bpNumber,
      render: (r) => r.buyer.bpNumber,
      nowrap: true,
    },
    { key: 'buyerName', header: 'Käufer', sortValue: (r) => r.buyer.name, render: (r) => r.buyer.name },
    { key: 'customerNumber', header: 'Kundennummer', render: (r) => r.supplierCustomerNumber ?? '–' },
    { key: 'sharedCustomerId', header: 'Gemeinsame Kunden-ID', render: (r) => r.sharedCustomerId ?? '–' },
    {
      key: 'status',
      header: 'Status',
      sortValue: (r) => r.relationStatusId,
      nowrap: true,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <RelationStatusBadge statusId={r.relationStatusId} />
          {!r.isActive && (
            <Text size="xs" c="orange">
              inaktiv
            </Text>
          )}
        </Group>
      ),
    },
    {
      key: 'trail',
      header: 'Verlauf',
      nowrap: true,
      render: (r) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => setTrailFor(r)}
          aria-label={`Verlauf ${r.supplier.name} – ${r.buyer.name}`}
        >
          Verlauf
        </Button>
      ),
    },
  ];

  return (
    <Page
      title="Geschäftspartner"
      actions={
        profile.data && (
          <Button variant="light" onClick={() => setInviting(true)}>
            Benutzer einladen
          </Button>
        )
      }
    >
      <Group align="flex-end" gap="md" wrap="wrap">
        <ListSearchInput
          label="Lieferantennummer"
          placeholder="z. B. 200001"
          value={supplierParam ?? ''}
          onCommit={commitSupplier}
          w={{ base: '100%', sm: 220 }}
          maxLength={20}
        />
        <ListSearchInput
          label="Käufernummer"
          placeholder="z. B. 100001"
          value={customerParam ?? ''}
          onCommit={commitCustomer}
          w={{ base: '100%', sm: 220 }}
          maxLength={20}
        />
        <RelationStatusFilter
          statuses={allRelationStatuses}
          value={status}
          onChange={(value) => setStatusParam(value === null ? null : String(value))}
        />
      </Group>
      {list.isError ? (
        <Alert color="red" variant="light">
          {problemTitle(list.error, 'Die Geschäftsbeziehungen konnten nicht geladen werden.')}
        </Alert>
      ) : (
        <>
          {list.data && (
            <Text
              size="sm"
              c="dimmed"
              data-testid="relations-count"
            >{`${list.data.totalCount} Geschäftsbeziehungen`}</Text>
          )}
          <DataTable
            label="Geschäftsbeziehungen"
            columns={columns}
            rows={list.data?.items ?? []}
            rowKey={(r) => r.id}
            emptyText={relationMessages.noResults}
            loading={list.isPending}
            testId="business-partners-table"
            minWidth={1000}
          />
        </>
      )}
      <StatusTrailDialog relation={trailFor} onClose={() => setTrailFor(null)} />
      {profile.data && (
        <InviteUserDialog opened={inviting} onClose={() => setInviting(false)} inviter={profile.data.role} />
      )}
    </Page>
  );
}
