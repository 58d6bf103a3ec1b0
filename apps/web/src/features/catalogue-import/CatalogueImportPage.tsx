import { useState } from 'react';
import { Alert, Badge, Button, FileInput, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Role, catalogueImportMessages } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import { useUrlParam } from '../../ui/use-url-param';
import { useUserProfile } from '../../api/session';
import { problemTitle } from '../../api/problem';
import { formatCount, formatDateTime, formatNumber } from '../../ui/format';
import { catalogueImportApi, type CatalogueImport } from '../../api/catalogue-import';

const statusLabel: Record<CatalogueImport['status'], { label: string; color: string }> = {
  Pending: { label: 'Wartet', color: 'gray' },
  InProgress: { label: 'Läuft', color: 'blue' },
  Completed: { label: 'Abgeschlossen', color: 'green' },
  Failed: { label: 'Fehlgeschlagen', color: 'red' },
};
const running = (i: CatalogueImport) => i.status === 'Pending' || i.status === 'InProgress';
const number = formatCount;
const dateTime = (iso: string | null) => (iso ? formatDateTime(iso) : '–');

/**
 * Katalogimport: administrators choose the supplier (?bp=, linked from the supplier administration),
 * sellers import for the supplier they work for. The list refreshes while an import runs.
 */
export default function CatalogueImportPage() {
  const profile = useUserProfile();
  const [bpParam, setBpParam] = useUrlParam('bp');
  const isSeller = profile.data?.role === Role.Seller;
  const bp = isSeller ? (profile.data?.currentBpNumber ?? null) : bpParam;
  const [bpInput, setBpInput] = useState(bpParam ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const queryClient = useQueryClient();

  const imports = useQuery({
    queryKey: ['catalogue-imports', bp],
    queryFn: () => catalogueImportApi.list(bp!),
    enabled: !!bp,
    refetchInterval: (query) => (query.state.data?.some(running) ? 1_000 : false),
  });
  const details = useQuery({
    queryKey: ['catalogue-imports', bp, selected, imports.data?.find((i) => i.id === selected)?.status],
    queryFn: () => catalogueImportApi.details(bp!, selected!),
    enabled: !!bp && selected !== null,
  });
  const upload = useMutation({
    mutationFn: () => catalogueImportApi.upload(bp!, file!),
    onSuccess: async (result) => {
      toast.success(result.message);
      setFile(null);
      setSelected(result.id);
      await queryClient.invalidateQueries({ queryKey: ['catalogue-imports', bp] });
    },
    onError: (error) => toast.error(problemTitle(error, catalogueImportMessages.unknownFormat)),
  });

  return (
    <Page title="Katalogimport">
      <Text c="dimmed">
        BMEcat 2005 mit ETIM (T_NEW_CATALOG, T_UPDATE_PRODUCTS, T_UPDATE_PRICES), auch als ZIP mit Medien, oder DATANORM
        4/5. Bei einem Gesamtkatalog werden Artikel, die nicht mehr in der Datei stehen, zurückgezogen.
      </Text>
      {!isSeller && (
        <Group align="end">
          <TextInput
            label="Lieferant (Geschäftspartnernummer)"
            value={bpInput}
            onChange={(e) => setBpInput(e.currentTarget.value)}
          />
          <Button variant="default" onClick={() => setBpParam(bpInput.trim() || null)}>
            Anzeigen
          </Button>
        </Group>
      )}
      {bp && (
        <Stack gap="sm" maw={560}>
          <FileInput
            label="Katalogdatei"
            placeholder="Datei auswählen"
            accept=".xml,.zip,.001,.002,.003,.dat,.txt"
            value={file}
            onChange={setFile}
            clearable
          />
          <Group>
            <Button onClick={() => upload.mutate()} loading={upload.isPending} disabled={!file}>
              Import starten
            </Button>
          </Group>
        </Stack>
      )}
      {imports.isError && (
        <Alert color="red">{problemTitle(imports.error, catalogueImportMessages.notASupplier)}</Alert>
      )}
      {imports.data && (
        <Table striped withTableBorder highlightOnHover aria-label="Katalogimporte">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Datei</Table.Th>
              <Table.Th>Format</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Gelesen</Table.Th>
              <Table.Th>Neu</Table.Th>
              <Table.Th>Geändert</Table.Th>
              <Table.Th>Unverändert</Table.Th>
              <Table.Th>Zurückgezogen</Table.Th>
              <Table.Th>Abgelehnt</Table.Th>
              <Table.Th>Dauer</Table.Th>
              <Table.Th>Hochgeladen</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {imports.data.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={11}>Noch keine Importe.</Table.Td>
              </Table.Tr>
            )}
            {imports.data.map((i) => (
              <Table.Tr
                key={i.id}
                onClick={() => setSelected(i.id)}
                style={{ cursor: 'pointer' }}
                data-testid={`import-${i.id}`}
              >
                <Table.Td>{i.fileName}</Table.Td>
                <Table.Td>{[i.format, i.transaction].filter(Boolean).join(' · ') || '–'}</Table.Td>
                <Table.Td>
                  <Badge color={statusLabel[i.status].color}>{statusLabel[i.status].label}</Badge>
                </Table.Td>
                <Table.Td>{number(i.counts.read)}</Table.Td>
                <Table.Td>{number(i.counts.created)}</Table.Td>
                <Table.Td>{number(i.counts.updated)}</Table.Td>
                <Table.Td>{number(i.counts.unchanged)}</Table.Td>
                <Table.Td>{number(i.counts.deleted)}</Table.Td>
                <Table.Td>{number(i.counts.rejected)}</Table.Td>
                <Table.Td>{i.durationMs === null ? '–' : `${formatNumber(i.durationMs / 1000, 1)} s`}</Table.Td>
                <Table.Td>{dateTime(i.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {details.data && (
        <Stack gap="xs">
          <Title order={2}>Import {details.data.fileName}</Title>
          {details.data.error && <Alert color="red">{details.data.error}</Alert>}
          {details.data.rejections.length === 0 ? (
            <Text>Keine abgelehnten Artikel.</Text>
          ) : (
            <Table withTableBorder aria-label="Abgelehnte Artikel">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Position</Table.Th>
                  <Table.Th>Artikelnummer</Table.Th>
                  <Table.Th>Grund</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {details.data.rejections.map((r) => (
                  <Table.Tr key={r.position}>
                    <Table.Td>{r.position}</Table.Td>
                    <Table.Td>{r.productId ?? '–'}</Table.Td>
                    <Table.Td>{r.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Page>
  );
}
