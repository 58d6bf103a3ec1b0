import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { punchoutSessionsApi } from '../../api/ids';
import { formatDateTime } from '../../ui/format';

const protocolNames = { oci: 'OCI', cxml: 'cXML' } as const;

/** Staff see punchout sessions like IDS contexts: who, which partner, when, how many lines went back. */
export function PunchoutSessionsSection() {
  const sessions = useQuery({ queryKey: ['punchout', 'sessions'], queryFn: punchoutSessionsApi.list });
  return (
    <Stack gap="sm" mt="xl" component="section" aria-labelledby="punchout-sessions">
      <Title order={2} size="h3" id="punchout-sessions">
        Punchout-Sitzungen
      </Title>
      {sessions.isError && <Alert color="red">Die Punchout-Sitzungen konnten nicht geladen werden.</Alert>}
      {sessions.data && sessions.data.length === 0 && <Text c="dimmed">Noch keine Punchout-Sitzungen.</Text>}
      {sessions.data && sessions.data.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Punchout-Sitzungen" data-testid="punchout-sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Protokoll</Table.Th>
                <Table.Th>Benutzer</Table.Th>
                <Table.Th>Geschäftspartner</Table.Th>
                <Table.Th>Begonnen</Table.Th>
                <Table.Th>Zurückgegeben</Table.Th>
                <Table.Th>Positionen</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <Table.Tr key={s.contextId}>
                  <Table.Td>
                    {protocolNames[s.protocol]}
                    {s.operation ? ` (${s.operation})` : ''}
                  </Table.Td>
                  <Table.Td>{s.userEmail}</Table.Td>
                  <Table.Td>
                    {s.bpNumber}
                    {s.partnerName ? ` – ${s.partnerName}` : ''}
                  </Table.Td>
                  <Table.Td>{formatDateTime(s.createdAt)}</Table.Td>
                  <Table.Td>{s.returnedAt ? formatDateTime(s.returnedAt) : '–'}</Table.Td>
                  <Table.Td>{s.linesReturned ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
