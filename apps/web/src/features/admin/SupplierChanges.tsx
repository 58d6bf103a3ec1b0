import { Alert, Loader, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../ui/format';
import { supplierFieldLabels } from './field-labels';
import { useSupplierChanges } from '../../api/suppliers';

/** The audit trail of a supplier: who changed which field when, old → new. */
export function SupplierChanges({ bp }: { bp: string }) {
  const changes = useSupplierChanges(bp);
  if (changes.isPending) return <Loader />;
  if (changes.isError) return <Alert color="red">Das Änderungsprotokoll konnte nicht geladen werden.</Alert>;
  if (!changes.data.length) return <Text c="dimmed">Keine Änderungen</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Änderungsprotokoll" data-testid="supplier-changes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Zeitpunkt</Table.Th>
            <Table.Th>Geändert von</Table.Th>
            <Table.Th>Feld</Table.Th>
            <Table.Th>Alt</Table.Th>
            <Table.Th>Neu</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.data.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.changedAt)}</Table.Td>
              <Table.Td>{c.changedBy}</Table.Td>
              <Table.Td>{supplierFieldLabels[c.field] ?? c.field}</Table.Td>
              <Table.Td>{c.oldValue ?? '–'}</Table.Td>
              <Table.Td>{c.newValue ?? '–'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
