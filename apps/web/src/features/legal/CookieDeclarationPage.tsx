import { Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { CONSENT_STORAGE_KEY, PREFERENCE_STORAGE_PREFIX, useConsent } from '../../ui/consent';
import { formatDateTime } from '../../ui/format';
import { Page } from '../../ui/Page';
import { LegalText } from './LegalText';

interface StorageEntry {
  name: string;
  kind: string;
  purpose: string;
  duration: string;
}

const necessary: StorageEntry[] = [
  {
    name: 'oidc.user:…',
    kind: 'Sitzungsspeicher',
    purpose: 'Ihre Anmeldung im Portal',
    duration: 'Bis zur Abmeldung oder zum Schließen des Tabs',
  },
  {
    name: 'shk.signedIn',
    kind: 'Lokaler Speicher',
    purpose: 'Hinweis, dass neue Tabs Sie über den Anmeldedienst anmelden (enthält keine Zugangsdaten)',
    duration: 'Bis zur Abmeldung',
  },
  { name: 'oidc.…', kind: 'Sitzungsspeicher', purpose: 'Absicherung des Anmeldevorgangs', duration: 'Sitzung' },
  {
    name: '_session, _interaction',
    kind: 'Cookie (Anmeldedienst)',
    purpose: 'Sitzung beim Anmeldedienst',
    duration: 'Bis zu 14 Tage',
  },
  { name: 'shk.currentCartId', kind: 'Sitzungsspeicher', purpose: 'Ihr gewählter Warenkorb', duration: 'Sitzung' },
  {
    name: CONSENT_STORAGE_KEY,
    kind: 'Lokaler Speicher',
    purpose: 'Ihre Cookie-Einstellungen',
    duration: 'Bis zum Widerruf',
  },
];

const preferences: StorageEntry[] = [
  {
    name: `${PREFERENCE_STORAGE_PREFIX}…`,
    kind: 'Sitzungsspeicher',
    purpose: 'Zuletzt angesehene Produkte',
    duration: 'Sitzung',
  },
];

const marketing: StorageEntry[] = [
  {
    name: 'Video-Hilfe',
    kind: 'Drittanbieter',
    purpose: 'Hilfevideos und Einführungsvideos von Herstellern',
    duration: 'Laut Anbieter',
  },
];

function StorageTable({ title, entries }: { title: string; entries: StorageEntry[] }) {
  return (
    <Card withBorder radius="md" component="section">
      <Title order={2} size="h3" mb="sm">
        {title}
      </Title>
      <Table.ScrollContainer minWidth={600}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Art</Table.Th>
              <Table.Th>Zweck</Table.Th>
              <Table.Th>Speicherdauer</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.name}>
                <Table.Td>{entry.name}</Table.Td>
                <Table.Td>{entry.kind}</Table.Td>
                <Table.Td>{entry.purpose}</Table.Td>
                <Table.Td>{entry.duration}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

const yesNo = (value: boolean) => (value ? 'erteilt' : 'nicht erteilt');

/** /cookie-declaration – what the portal stores, the current choice and the way to change or withdraw it. */
export default function CookieDeclarationPage() {
  const { decision, openSettings, withdraw } = useConsent();
  return (
    <Page title="Cookie-Erklärung">
      <LegalText>
        <p>
          Das Portal speichert technisch notwendige Informationen in Cookies und im Speicher Ihres Browsers. Präferenz-
          und Marketing-Speicher nutzen wir nur mit Ihrer Einwilligung, die Sie jederzeit ändern oder widerrufen können.
        </p>
      </LegalText>
      <Card withBorder radius="md" maw={820} data-testid="consent-status">
        <Title order={2} size="h3" mb="xs">
          Ihre Einwilligung
        </Title>
        {decision ? (
          <Text size="sm">
            Präferenzen: {yesNo(decision.preferences)} · Marketing: {yesNo(decision.marketing)}
            {decision.decidedAt && ` · gespeichert am ${formatDateTime(decision.decidedAt)}`}
          </Text>
        ) : (
          <Text size="sm">Sie haben noch keine Auswahl getroffen.</Text>
        )}
        <Group mt="md" gap="sm">
          <Button variant="light" onClick={openSettings}>
            Cookie-Einstellungen ändern
          </Button>
          <Button variant="default" color="red" onClick={withdraw} disabled={!decision}>
            Einwilligung widerrufen
          </Button>
        </Group>
      </Card>
      <StorageTable title="Notwendig" entries={necessary} />
      <StorageTable title="Präferenzen" entries={preferences} />
      <StorageTable title="Marketing" entries={marketing} />
    </Page>
  );
}
