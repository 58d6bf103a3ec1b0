import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { transmissionMessages } from '@shk/contracts';
import { problemTitle } from '../../api/problem';
import { transmissionsApi, useTransmissionLog } from '../../api/supplier-orders';
import { formatDateTime } from '../../ui/format';
import { toast } from '../../ui/toast';

const SENDING_FAILED = 3;
const communicationProtocolLabels: Record<number, string> = {
  1: 'E-Mail',
  2: 'SFTP',
  3: 'AS2',
  4: 'HTTP',
  5: 'FTP',
  6: 'API',
};
const outcomeLabels: Record<string, string> = {
  running: 'läuft',
  sent: 'gesendet',
  failed: 'fehlgeschlagen',
  abandoned: 'abgebrochen',
};

/** Staff: every transmission attempt (channel, time, error) and 'Erneut senden' for failed orders. */
export function TransmissionLog({ supplierOrderNumber }: { supplierOrderNumber: string }) {
  const queryClient = useQueryClient();
  const log = useTransmissionLog(supplierOrderNumber, true);
  const failed = log.data?.supplierOrderStatusId === SENDING_FAILED;
  const resend = async (channel: 'first' | 'current') => {
    try {
      await transmissionsApi.resend(supplierOrderNumber, channel);
      toast.success(
        channel === 'current' ? transmissionMessages.resendQueuedCurrent : transmissionMessages.resendQueued,
      );
      await queryClient.invalidateQueries({ queryKey: ['bp'] });
    } catch (error) {
      toast.error(problemTitle(error, 'Die Bestellung konnte nicht erneut gesendet werden.'));
    }
  };
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Übertragungsprotokoll">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Übertragungsprotokoll
          </Title>
          {failed && (
            <Group gap="xs">
              {log.data?.currentChannel && (
                <Button variant="subtle" color="orange" onClick={() => void resend('current')}>
                  {transmissionMessages.resendCurrentAction}
                </Button>
              )}
              <Button variant="light" onClick={() => void resend('first')}>
                {transmissionMessages.resendAction}
              </Button>
            </Group>
          )}
        </Group>
        {failed && log.data?.channel && (
          <Text size="sm" data-testid="resend-channel">
            {transmissionMessages.resendUses(log.data.channel.description)}
          </Text>
        )}
        {failed && log.data?.currentChannel && (
          <Alert color="orange" data-testid="channel-changed">
            {transmissionMessages.channelChanged(log.data.currentChannel.description)}
          </Alert>
        )}
        {log.isError && <Alert color="red">Das Protokoll konnte nicht geladen werden.</Alert>}
        {log.data && log.data.log.length === 0 && <Text size="sm">Noch keine Übertragungsversuche.</Text>}
        {log.data && log.data.log.length > 0 && (
          <Table aria-label="Übertragungsversuche" data-testid="transmission-log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Versuch</Table.Th>
                <Table.Th>Kanal</Table.Th>
                <Table.Th>Zeitpunkt</Table.Th>
                <Table.Th>Ergebnis</Table.Th>
                <Table.Th>Fehler</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.log.map((a) => (
                <Table.Tr key={a.attemptNo}>
                  <Table.Td>{a.attemptNo}</Table.Td>
                  <Table.Td>
                    {communicationProtocolLabels[a.communicationProtocolId] ?? a.communicationProtocolId}
                  </Table.Td>
                  <Table.Td>{formatDateTime(a.startedAt)}</Table.Td>
                  <Table.Td>{outcomeLabels[a.outcome] ?? a.outcome}</Table.Td>
                  <Table.Td>{a.error ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
