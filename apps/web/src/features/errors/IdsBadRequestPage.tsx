import { Alert, Code, Stack, Table, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { Page } from '../../ui/Page';
import { idsErrorText } from './ids-errors';

/** /ids-bad-request?property=…&error=…: the procurement system sent an invalid request. */
export default function IdsBadRequestPage() {
  const [params] = useSearchParams();
  const property = params.get('property');
  const error = params.get('error');
  return (
    <Page title="Fehler 400 - Ungültige Anfrage">
      <Stack gap="md" maw={720}>
        <Alert color="red" variant="light" title="Die Anfrage konnte nicht verarbeitet werden">
          {idsErrorText(error)}
        </Alert>
        <Table withTableBorder variant="vertical" maw={520}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>Eigenschaft</Table.Th>
              <Table.Td data-testid="ids-property">{property ? <Code>{property}</Code> : '–'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Fehler</Table.Th>
              <Table.Td data-testid="ids-error">{error ? <Code>{error}</Code> : '–'}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          Bitte wenden Sie sich an den Anbieter Ihres Warenwirtschaftssystems oder an unseren Support.
        </Text>
      </Stack>
    </Page>
  );
}
