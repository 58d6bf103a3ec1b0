import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  List,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Role, catalogueImportMessages, catalogueImportStatusLabels } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { MediaAccess } from './MediaAccess';
import { toast } from '../../ui/toast';
import { useUrlParam } from '../../ui/use-url-param';
import { useUserProfile } from '../../api/session';
import { problemTitle } from '../../api/problem';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { formatCount, formatDateTime, formatNumber } from '../../ui/format';
import {
  catalogueImportApi,
  type CatalogueImport,
  type CatalogueImportDecision,
  type CatalogueImportDetails,
} from '../../api/catalogue-import';

const statusColor: Record<CatalogueImport['status'], string> = {
  // Shades whose text (white or black by autoContrast) reaches 4.5:1; gray.6, blue.6, red.6 and grape.6 with white
  // text do not (axe-core's color-contrast).
  Pending: 'gray.7',
  InProgress: 'blue.8',
  AwaitingApproval: 'yellow',
  Completed: 'green',
  Failed: 'red.9',
  Discarded: 'gray.7',
  RolledBack: 'grape.8',
};
const running = (i: CatalogueImport) => i.status === 'Pending' || i.status === 'InProgress';
const number = formatCount;
const dateTime = (iso: string | null) => (iso ? formatDateTime(iso) : '–');
const userName = (user: CatalogueImport['startedBy']) => (user ? user.name || 'Unbekannt' : '–');
/** Long file names and article numbers wrap instead of widening the page. */
const wrap = { overflowWrap: 'anywhere' } as const;

function StatusBadge({ status }: { status: CatalogueImport['status'] }) {
  return <Badge color={statusColor[status]}>{catalogueImportStatusLabels[status]}</Badge>;
}

/**
 * Katalogimport: administrators choose the supplier (?bp=, linked from the supplier administration),
 * sellers import for the supplier they work for. The list refreshes while an import runs; a full catalogue whose
 * withdrawal is implausible waits for approval here, and the supplier's latest import can be undone.
 */
export default function CatalogueImportPage() {
  const profile = useUserProfile();
  const [bpParam, setBpParam] = useUrlParam('bp');
  const isSeller = profile.data?.role === Role.Seller;
  const isAdmin = profile.data?.role === Role.Administrator;
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
  const selectedImport = imports.data?.find((i) => i.id === selected);
  const details = useQuery({
    queryKey: ['catalogue-imports', bp, selected, selectedImport?.status, selectedImport?.counts.read],
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

  const columns: DataTableColumn<CatalogueImport>[] = [
    { key: 'file', header: 'Datei', render: (i) => <Text style={wrap}>{i.fileName}</Text> },
    {
      key: 'format',
      header: 'Format',
      render: (i) => <Text style={wrap}>{[i.format, i.transaction].filter(Boolean).join(' · ') || '–'}</Text>,
    },
    { key: 'status', header: 'Status', render: (i) => <StatusBadge status={i.status} />, nowrap: true },
    { key: 'read', header: 'Gelesen', render: (i) => number(i.counts.read), nowrap: true },
    { key: 'created', header: 'Neu', render: (i) => number(i.counts.created), nowrap: true },
    { key: 'updated', header: 'Geändert', render: (i) => number(i.counts.updated), nowrap: true },
    { key: 'deleted', header: 'Zurückgezogen', render: (i) => number(i.counts.deleted), nowrap: true },
    { key: 'rejected', header: 'Abgelehnt', render: (i) => number(i.counts.rejected), nowrap: true },
    { key: 'warnings', header: 'Warnungen', render: (i) => number(i.counts.warnings), nowrap: true },
    { key: 'startedBy', header: 'Gestartet von', render: (i) => userName(i.startedBy) },
    { key: 'approvedBy', header: 'Freigegeben von', render: (i) => userName(i.approvedBy) },
    {
      key: 'created-at',
      header: 'Hochgeladen',
      render: (i) => dateTime(i.createdAt),
      sortValue: (i) => i.createdAt,
      nowrap: true,
    },
    {
      key: 'show',
      header: 'Details',
      render: (i) => (
        <Button size="xs" variant="light" onClick={() => setSelected(i.id)} data-testid={`import-${i.id}`}>
          Anzeigen
        </Button>
      ),
    },
  ];

  return (
    <Page title="Katalogimport">
      <Text c="dimmed">
        BMEcat 2005 mit ETIM (T_NEW_CATALOG, T_UPDATE_PRODUCTS, T_UPDATE_PRICES), auch als ZIP mit Medien, oder DATANORM
        4/5. Bei einem Gesamtkatalog werden Artikel, die nicht mehr in der Datei stehen, zurückgezogen – nur wenn das
        plausibel ist, sonst wartet der Import auf Freigabe.
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
      {bp && <ImportLimits bp={bp} editable={isAdmin} />}
      {bp && isAdmin && <MediaAccess bp={bp} />}
      {imports.isError && (
        <Alert color="red">{problemTitle(imports.error, catalogueImportMessages.notASupplier)}</Alert>
      )}
      {imports.data && (
        <DataTable
          label="Katalogimporte"
          columns={columns}
          rows={imports.data}
          rowKey={(i) => i.id}
          emptyText="Noch keine Importe."
          pageSize={10}
          minWidth={1100}
          testId="catalogue-imports"
        />
      )}
      {bp && details.data && <ImportDetails bp={bp} details={details.data} />}
    </Page>
  );
}

/** The supplier's limits for a full catalogue; staff (administrators) change them, the seller reads them. */
function ImportLimits({ bp, editable }: { bp: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['catalogue-import-settings', bp],
    queryFn: () => catalogueImportApi.settings(bp),
  });
  const [draft, setDraft] = useState<{ withdraw: number | string; reject: number | string } | null>(null);
  const save = useMutation({
    mutationFn: () =>
      catalogueImportApi.saveSettings(bp, {
        maxWithdrawPercent: Number(draft!.withdraw),
        maxRejectPercent: Number(draft!.reject),
      }),
    onSuccess: async () => {
      toast.success(catalogueImportMessages.settingsSaved);
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: ['catalogue-import-settings', bp] });
    },
    onError: (error) => toast.error(problemTitle(error, 'Die Grenzwerte konnten nicht gespeichert werden.')),
  });
  if (!settings.data) return null;
  const current = draft ?? { withdraw: settings.data.maxWithdrawPercent, reject: settings.data.maxRejectPercent };
  if (!editable)
    return (
      <Text size="sm" c="dimmed">
        Ein Gesamtkatalog wartet auf Freigabe, wenn er mehr als {formatNumber(current.withdraw as number)} % des
        Sortiments zurückziehen würde oder mehr als {formatNumber(current.reject as number)} % seiner Artikel abgelehnt
        werden.
      </Text>
    );
  return (
    <Group align="end" maw={560}>
      <NumberInput
        label="Höchstens zurückziehen (% des Sortiments)"
        min={0}
        max={100}
        decimalScale={2}
        value={current.withdraw}
        onChange={(value) => setDraft({ ...current, withdraw: value })}
      />
      <NumberInput
        label="Höchstens abgelehnt (% der Artikel)"
        min={0}
        max={100}
        decimalScale={2}
        value={current.reject}
        onChange={(value) => setDraft({ ...current, reject: value })}
      />
      <Button variant="default" onClick={() => save.mutate()} loading={save.isPending} disabled={!draft}>
        Grenzwerte speichern
      </Button>
    </Group>
  );
}

interface ListEntry {
  position: number;
  productId: string | null;
  reason: string;
}

const entryColumns = (reasonHeader: string): DataTableColumn<ListEntry>[] => [
  { key: 'position', header: 'Position', render: (r) => r.position, sortValue: (r) => r.position, nowrap: true },
  { key: 'product', header: 'Artikelnummer', render: (r) => <Text style={wrap}>{r.productId ?? '–'}</Text> },
  { key: 'reason', header: reasonHeader, render: (r) => <Text style={wrap}>{r.reason}</Text> },
];

/** One import: its preview and approval, undo, warnings and rejections with their CSV downloads. */
function ImportDetails({ bp, details }: { bp: string; details: CatalogueImportDetails }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: CatalogueImportDecision) => catalogueImportApi.decide(bp, details.id, decision),
    onSuccess: async (_result, decision) => {
      toast.success(
        decision === 'Approve'
          ? catalogueImportMessages.approved
          : decision === 'Discard'
            ? catalogueImportMessages.discarded
            : catalogueImportMessages.undone,
      );
      await queryClient.invalidateQueries({ queryKey: ['catalogue-imports', bp] });
    },
    onError: (error) => toast.error(problemTitle(error, 'Die Aktion konnte nicht ausgeführt werden.')),
  });
  const download = (kind: 'Warnings' | 'Rejections') =>
    catalogueImportApi
      .downloadCsv(bp, details.id, kind)
      .catch((error: unknown) => toast.error(problemTitle(error, 'Der Download ist fehlgeschlagen.')));
  const preview = details.preview;
  const c = details.counts;

  return (
    <Stack gap="sm" data-testid="import-details">
      <Title order={2} style={wrap}>
        Import {details.fileName}
      </Title>
      <Group gap="xs">
        <StatusBadge status={details.status} />
        <Text size="sm">
          Gestartet von {userName(details.startedBy)}
          {details.approvedBy &&
            ` · freigegeben von ${userName(details.approvedBy)} am ${dateTime(details.approvedAt)}`}
          {details.revertedBy &&
            ` · zurückgenommen von ${userName(details.revertedBy)} am ${dateTime(details.revertedAt)}`}
        </Text>
      </Group>
      {details.error && <Alert color="red">{details.error}</Alert>}
      {details.status === 'AwaitingApproval' && preview && (
        <Alert color="yellow" title="Wartet auf Freigabe" data-testid="import-preview">
          <Stack gap="xs">
            <List size="sm">
              {preview.reasons.map((reason) => (
                <List.Item key={reason}>{reason}</List.Item>
              ))}
            </List>
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
              <Figure label="Neu" value={c.created} />
              <Figure label="Geändert" value={c.updated} />
              <Figure label="Unverändert" value={c.unchanged} />
              <Figure label="Zurückzuziehen" value={preview.toWithdraw} />
              <Figure label="Abgelehnt" value={c.rejected} />
            </SimpleGrid>
            <Text size="sm">
              Der Import würde {number(preview.toWithdraw)} von {number(preview.assortment)} Angeboten (
              {formatNumber(preview.withdrawPercent)} %) zurückziehen; abgelehnt wurden{' '}
              {formatNumber(preview.rejectedPercent)} % der Artikel. Neue und geänderte Artikel sind bereits übernommen;
              „Verwerfen“ setzt sie zurück.
            </Text>
            {details.withdrawSample.length > 0 && (
              <>
                <Text size="sm" fw={700}>
                  Beispiele der zurückzuziehenden Angebote
                </Text>
                <List size="sm" data-testid="withdraw-sample">
                  {details.withdrawSample.map((s) => (
                    <List.Item key={s.productId} style={wrap}>
                      {s.productId}
                      {s.name ? ` – ${s.name}` : ''}
                    </List.Item>
                  ))}
                </List>
              </>
            )}
            <Group>
              <Button onClick={() => decide.mutate('Approve')} loading={decide.isPending}>
                Freigeben und zurückziehen
              </Button>
              <Button variant="default" onClick={() => decide.mutate('Discard')} loading={decide.isPending}>
                Verwerfen
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {details.undoableUntil && (
        <Group>
          <Button variant="default" onClick={() => decide.mutate('Undo')} loading={decide.isPending}>
            Import rückgängig machen
          </Button>
          <Text size="sm" c="dimmed">
            Möglich bis {dateTime(details.undoableUntil)}: zurückgezogene Angebote kommen wieder, geänderte erhalten
            ihre früheren Werte, neue werden zurückgezogen.
          </Text>
        </Group>
      )}
      <Group justify="space-between">
        <Title order={3}>Warnungen ({number(c.warnings)})</Title>
        <Button size="xs" variant="light" disabled={!details.warnings.length} onClick={() => void download('Warnings')}>
          Warnungen als CSV
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Diese Artikel wurden übernommen; ein Wert fehlt, wurde gekürzt oder ersetzt.
      </Text>
      <DataTable
        label="Warnungen"
        columns={entryColumns('Hinweis')}
        rows={details.warnings}
        rowKey={(r) => `${r.position}-${r.reason}`}
        emptyText="Keine Warnungen."
        pageSize={20}
        testId="import-warnings"
      />
      <Group justify="space-between">
        <Title order={3}>Abgelehnte Artikel ({number(c.rejected)})</Title>
        <Button
          size="xs"
          variant="light"
          disabled={!details.rejections.length}
          onClick={() => void download('Rejections')}
        >
          Ablehnungen als CSV
        </Button>
      </Group>
      <DataTable
        label="Abgelehnte Artikel"
        columns={entryColumns('Grund')}
        rows={details.rejections}
        rowKey={(r) => r.position}
        emptyText="Keine abgelehnten Artikel."
        pageSize={20}
        testId="import-rejections"
      />
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{number(value)}</Text>
    </Stack>
  );
}
