import { Alert, Modal, Stack, Text, Title } from '@mantine/core';
import { useRelationStatusChanges, type Relation, type RelationStatusChange } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { FieldList } from '../../ui/FieldList';
import { formatDateTime } from '../../ui/format';
import { RelationStatusBadge } from '../../ui/relation-status';

const who = (change: RelationStatusChange) => {
  if (!change.changedBy) return 'System';
  const name = `${change.changedBy.firstName} ${change.changedBy.lastName}`.trim();
  return name ? `${name} (${change.changedBy.email})` : change.changedBy.email;
};

const columns: DataTableColumn<RelationStatusChange>[] = [
  { key: 'changedAt', header: 'Zeitpunkt', render: (c) => formatDateTime(c.changedAt), nowrap: true },
  { key: 'changedBy', header: 'Geändert von', render: who },
  {
    key: 'old',
    header: 'Alter Status',
    render: (c) => (c.oldStatusId === null ? '–' : <RelationStatusBadge statusId={c.oldStatusId} />),
    nowrap: true,
  },
  { key: 'new', header: 'Neuer Status', render: (c) => <RelationStatusBadge statusId={c.newStatusId} />, nowrap: true },
  { key: 'comments', header: 'Kommentar', render: (c) => c.comments ?? '–' },
];

/** The audit trail of one relation: who changed the status when, from which to which. */
export function StatusTrailDialog({ relation, onClose }: { relation: Relation | null; onClose: () => void }) {
  const trail = useRelationStatusChanges(relation?.id ?? null);
  return (
    <Modal opened={relation !== null} onClose={onClose} title="Verlauf der Geschäftsbeziehung" size="xl" centered>
      {relation && (
        <Stack gap="md">
          <FieldList
            labelWidth={190}
            fields={[
              { label: 'Lieferant', value: `${relation.supplier.name} (${relation.supplier.bpNumber})` },
              { label: 'Käufer', value: `${relation.buyer.name} (${relation.buyer.bpNumber})` },
              { label: 'Kundennummer', value: relation.supplierCustomerNumber },
              { label: 'Status', value: <RelationStatusBadge statusId={relation.relationStatusId} /> },
              { label: 'Begründung', value: relation.comments },
            ]}
          />
          <Title order={3} size="h4">
            Statusänderungen
          </Title>
          {trail.isError ? (
            <Alert color="red" variant="light">
              {problemTitle(trail.error, 'Der Verlauf konnte nicht geladen werden.')}
            </Alert>
          ) : (
            <DataTable
              label="Statusänderungen"
              columns={columns}
              rows={trail.data ?? []}
              rowKey={(c) => c.id}
              loading={trail.isPending}
              emptyText={
                <Text c="dimmed" size="sm">
                  Keine Statusänderungen erfasst.
                </Text>
              }
              pageSize={0}
              minWidth={640}
              testId="status-trail"
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
