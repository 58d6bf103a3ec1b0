import { useRef, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { limits, supplierOrderMessages, timings } from '@shk/contracts';
import type { SupplierOrderDetails } from '../../api/orders';
import { problemTitle } from '../../api/problem';
import { downloadApiFile } from '../../api/download';
import { useSupplierOrderDocumentLimits } from '../../api/configuration';
import {
  supplierOrderDocumentPath,
  supplierOrdersApi,
  type SupplierOrderConfirmationBody,
} from '../../api/supplier-orders';
import { filesForUpload } from '../../ui/file-selection';
import { formatCurrency, formatDate, formatQuantity } from '../../ui/format';
import { toast } from '../../ui/toast';
import { GermanDateInput } from '../../ui/GermanDateInput';

const CONFIRMED = 4;
const WITH_CHANGES = 5;

/** The seller's answer for one ordered line; empty fields keep the ordered value. */
interface LineEdit {
  quantity?: number;
  unitPrice?: number;
  deliveryDate?: string;
  removed?: boolean;
  replacementArticle?: string;
  replacementName?: string;
}

interface AddedLineEdit {
  key: number;
  articleNumber: string;
  name: string;
  quantity?: number;
  unitPrice?: number;
  deliveryDate?: string;
}

const texts = {
  confirmTitle: 'Bestellung verbindlich bestätigen?',
  confirmText: (orderNumber: string, withChanges: boolean) =>
    withChanges
      ? `Sie bestätigen die Bestellung ${orderNumber} mit den eingetragenen Änderungen verbindlich. Der Besteller wird per E-Mail informiert; danach ist keine Änderung mehr möglich.`
      : `Sie bestätigen die Bestellung ${orderNumber} verbindlich so, wie sie bestellt wurde. Der Besteller wird per E-Mail informiert; danach ist keine Änderung mehr möglich.`,
  confirmButton: 'Verbindlich bestätigen',
  confirmed: (orderNumber: string) => `Die Bestellung ${orderNumber} wurde verbindlich bestätigt.`,
  confirmedWithChanges: (orderNumber: string) =>
    `Die Bestellung ${orderNumber} wurde mit Änderungen verbindlich bestätigt.`,
  incompleteReplacement: (lineNo: number) =>
    `Bitte geben Sie für den Ersatzartikel der Position ${lineNo} Artikelnummer und Bezeichnung an.`,
  incompleteAddedLine: 'Bitte geben Sie für jede neue Position Artikelnummer, Bezeichnung und Menge an.',
};

const numberOrUndefined = (v: string | number) => (typeof v === 'number' ? v : undefined);

/** The ConfirmedWithChanges body from the form; a German message when a row is incomplete. */
function confirmationBody(
  order: SupplierOrderDetails,
  edits: Record<number, LineEdit>,
  added: AddedLineEdit[],
): SupplierOrderConfirmationBody | string {
  const lines: SupplierOrderConfirmationBody['lines'] = [];
  for (const line of order.lines) {
    const e = edits[line.lineNo];
    if (!e) continue;
    if (e.removed) {
      lines.push({ lineNo: line.lineNo, removed: true });
      continue;
    }
    const article = e.replacementArticle?.trim() ?? '';
    const name = e.replacementName?.trim() ?? '';
    if (Boolean(article) !== Boolean(name)) return texts.incompleteReplacement(line.lineNo);
    const change: SupplierOrderConfirmationBody['lines'][number] = { lineNo: line.lineNo };
    if (e.quantity !== undefined) change.quantity = e.quantity;
    if (e.unitPrice !== undefined) change.unitPrice = e.unitPrice;
    if (e.deliveryDate) change.deliveryDate = e.deliveryDate;
    if (article) change.replacement = { articleNumber: article, name };
    if (Object.keys(change).length > 1) lines.push(change);
  }
  const addedLines: SupplierOrderConfirmationBody['addedLines'] = [];
  for (const a of added) {
    if (!a.articleNumber.trim() || !a.name.trim() || a.quantity === undefined) return texts.incompleteAddedLine;
    addedLines.push({
      articleNumber: a.articleNumber.trim(),
      name: a.name.trim(),
      quantity: a.quantity,
      ...(a.unitPrice !== undefined ? { unitPrice: a.unitPrice } : {}),
      ...(a.deliveryDate ? { deliveryDate: a.deliveryDate } : {}),
    });
  }
  return { lines, addedLines };
}

/** Per ordered line: confirmed quantity, price, delivery date, replacement article or removal. */
function LineEditor({
  order,
  edits,
  onChange,
}: {
  order: SupplierOrderDetails;
  edits: Record<number, LineEdit>;
  onChange: (lineNo: number, patch: Partial<LineEdit>) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table aria-label="Bestätigte Positionen" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Pos.</Table.Th>
            <Table.Th>Artikel</Table.Th>
            <Table.Th>Bestätigte Menge</Table.Th>
            <Table.Th>Bestätigter Einzelpreis</Table.Th>
            <Table.Th>Bestätigtes Lieferdatum</Table.Th>
            <Table.Th>Ersatzartikel</Table.Th>
            <Table.Th>Entfernen</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.lines.map((l) => {
            const e = edits[l.lineNo] ?? {};
            const removed = Boolean(e.removed);
            return (
              <Table.Tr key={l.lineId} data-testid="confirmation-line">
                <Table.Td>{l.lineNo}</Table.Td>
                <Table.Td>
                  <Text size="sm">{l.ordered.name}</Text>
                  <Text size="xs" c="dimmed">
                    Art.-Nr. {l.ordered.articleNumber} · bestellt {formatQuantity(l.ordered.quantity)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Bestätigte Menge Position ${l.lineNo}`}
                    min={0.001}
                    decimalSeparator=","
                    placeholder={formatQuantity(l.ordered.quantity)}
                    value={e.quantity ?? ''}
                    onChange={(v) => onChange(l.lineNo, { quantity: numberOrUndefined(v) })}
                    disabled={removed}
                    maw={130}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Bestätigter Einzelpreis Position ${l.lineNo}`}
                    min={0}
                    decimalScale={2}
                    decimalSeparator=","
                    suffix=" €"
                    placeholder={l.ordered.unitPrice === null ? 'kein Preis' : formatCurrency(l.ordered.unitPrice)}
                    value={e.unitPrice ?? ''}
                    onChange={(v) => onChange(l.lineNo, { unitPrice: numberOrUndefined(v) })}
                    disabled={removed}
                    maw={150}
                  />
                </Table.Td>
                <Table.Td>
                  <GermanDateInput
                    aria-label={`Bestätigtes Lieferdatum Position ${l.lineNo}`}
                    title={
                      l.ordered.deliveryDate ? `bestellt: ${formatDate(l.ordered.deliveryDate)}` : 'kein Wunschtermin'
                    }
                    value={e.deliveryDate ?? ''}
                    onChange={(value) => onChange(l.lineNo, { deliveryDate: value || undefined })}
                    disabled={removed}
                    maw={160}
                  />
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <TextInput
                      aria-label={`Ersatzartikel Artikelnummer Position ${l.lineNo}`}
                      placeholder="Artikelnummer"
                      value={e.replacementArticle ?? ''}
                      onChange={(ev) => onChange(l.lineNo, { replacementArticle: ev.currentTarget.value })}
                      disabled={removed}
                      maxLength={limits.orderLineArticleNumber}
                      maw={180}
                    />
                    <TextInput
                      aria-label={`Ersatzartikel Bezeichnung Position ${l.lineNo}`}
                      placeholder="Bezeichnung"
                      value={e.replacementName ?? ''}
                      onChange={(ev) => onChange(l.lineNo, { replacementName: ev.currentTarget.value })}
                      disabled={removed}
                      maxLength={limits.orderLineName}
                      maw={180}
                    />
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Position ${l.lineNo} entfernen`}
                    checked={removed}
                    onChange={(ev) => onChange(l.lineNo, { removed: ev.currentTarget.checked })}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Lines the supplier adds to the order. */
function AddedLinesEditor({ added, onChange }: { added: AddedLineEdit[]; onChange: (next: AddedLineEdit[]) => void }) {
  const patch = (key: number, p: Partial<AddedLineEdit>) =>
    onChange(added.map((a) => (a.key === key ? { ...a, ...p } : a)));
  return (
    <Stack gap="xs">
      {added.map((a, i) => {
        const n = i + 1;
        return (
          <Group key={a.key} gap="xs" align="flex-end" wrap="wrap" data-testid="added-line">
            <TextInput
              label={`Neue Position ${n}: Artikelnummer`}
              value={a.articleNumber}
              onChange={(ev) => patch(a.key, { articleNumber: ev.currentTarget.value })}
              maxLength={limits.orderLineArticleNumber}
              w={170}
            />
            <TextInput
              label={`Neue Position ${n}: Bezeichnung`}
              value={a.name}
              onChange={(ev) => patch(a.key, { name: ev.currentTarget.value })}
              maxLength={limits.orderLineName}
              w={220}
            />
            <NumberInput
              label={`Neue Position ${n}: Menge`}
              min={0.001}
              decimalSeparator=","
              value={a.quantity ?? ''}
              onChange={(v) => patch(a.key, { quantity: numberOrUndefined(v) })}
              w={120}
            />
            <NumberInput
              label={`Neue Position ${n}: Einzelpreis`}
              min={0}
              decimalScale={2}
              decimalSeparator=","
              suffix=" €"
              value={a.unitPrice ?? ''}
              onChange={(v) => patch(a.key, { unitPrice: numberOrUndefined(v) })}
              w={140}
            />
            <GermanDateInput
              label={`Neue Position ${n}: Lieferdatum`}
              value={a.deliveryDate ?? ''}
              onChange={(value) => patch(a.key, { deliveryDate: value || undefined })}
              w={170}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Neue Position ${n} verwerfen`}
              onClick={() => onChange(added.filter((x) => x.key !== a.key))}
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            onChange([...added, { key: Math.max(0, ...added.map((a) => a.key)) + 1, articleNumber: '', name: '' }])
          }
        >
          Position hinzufügen
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Seller's part of the supplier-order detail: status change (Confirmed / ConfirmedWithChanges with a line
 * editor: quantity, price, delivery date, replacement article, removal and added lines) only when the API says
 * the order can be confirmed in the portal (supplier with e-mail inbound protocol, order in Sent; otherwise the
 * status is displayed only), and the order documents (upload within the configured limits, download, delete).
 */
export function SupplierOrderActions({ order }: { order: SupplierOrderDetails }) {
  const queryClient = useQueryClient();
  const limits = useSupplierOrderDocumentLimits();
  const [status, setStatus] = useState<string>(String(CONFIRMED));
  const [edits, setEdits] = useState<Record<number, LineEdit>>({});
  const [added, setAdded] = useState<AddedLineEdit[]>([]);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<SupplierOrderConfirmationBody | null>(null);
  const resetFiles = useRef<() => void>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['bp'] });

  const withChanges = status === String(WITH_CHANGES);

  /** A binding confirmation is asked once before it is sent. */
  const save = () => {
    const body = withChanges ? confirmationBody(order, edits, added) : { lines: [], addedLines: [] };
    if (typeof body === 'string') {
      toast.error(body);
      return;
    }
    setAsking(body);
  };

  const confirmBinding = async (body: SupplierOrderConfirmationBody) => {
    setAsking(null);
    setBusy(true);
    try {
      await supplierOrdersApi.confirm(order.supplierOrderNumber, Number(status), body);
      toast.success(
        withChanges
          ? texts.confirmedWithChanges(order.supplierOrderNumber)
          : texts.confirmed(order.supplierOrderNumber),
      );
      setEdits({});
      setAdded([]);
      await refresh();
    } catch (error) {
      toast.error(problemTitle(error, 'Der Status konnte nicht gespeichert werden.'));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (picked: File[]) => {
    resetFiles.current?.(); // the same file can be chosen again
    if (!picked.length) return;
    // Spec §5: files above the size are dropped, excess files are cut to the maximum (existing ones count).
    const { files, errors } = filesForUpload(order.attachments.length, picked, limits);
    if (errors.length) toast.error(supplierOrderMessages.documentLimits(limits.maxFileCount, limits.maxFileSizeMb));
    if (!files.length) return;
    try {
      await supplierOrdersApi.uploadDocuments(order.supplierOrderNumber, files);
      toast.success('Die Dokumente wurden hochgeladen.');
      await refresh();
    } catch (error) {
      toast.error(problemTitle(error, 'Beim Upload ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.'));
    }
  };

  const remove = async (id: number) => {
    try {
      await supplierOrdersApi.deleteDocument(order.supplierOrderNumber, id);
      toast.success('Das Dokument wurde gelöscht.');
      await refresh();
    } catch (error) {
      toast.error(problemTitle(error, 'Das Dokument konnte nicht gelöscht werden.'));
    }
  };

  return (
    <Stack gap="md">
      {order.confirmableInPortal && (
        <Paper withBorder radius="md" p="md" component="section" aria-label="Status ändern">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Status ändern
            </Title>
            <Select
              label="Neuer Status"
              data={[
                { value: String(CONFIRMED), label: 'Bestätigt' },
                { value: String(WITH_CHANGES), label: 'Mit Änderungen bestätigt' },
              ]}
              value={status}
              onChange={(v) => setStatus(v ?? String(CONFIRMED))}
              allowDeselect={false}
              maw={320}
            />
            {status === String(WITH_CHANGES) && (
              <>
                <Text size="sm" c="dimmed">
                  Leere Felder übernehmen den bestellten Wert.
                </Text>
                <LineEditor
                  order={order}
                  edits={edits}
                  onChange={(lineNo, patch) => setEdits((e) => ({ ...e, [lineNo]: { ...e[lineNo], ...patch } }))}
                />
                <AddedLinesEditor added={added} onChange={setAdded} />
              </>
            )}
            <Group>
              <Button onClick={save} loading={busy}>
                Speichern
              </Button>
            </Group>
          </Stack>
          <Modal
            opened={asking !== null}
            onClose={() => setAsking(null)}
            title={texts.confirmTitle}
            centered
            transitionProps={{ duration: timings.modalFadeMs }}
          >
            <Text size="sm">{texts.confirmText(order.supplierOrderNumber, withChanges)}</Text>
            <Group justify="flex-end" mt="lg" gap="sm">
              <Button variant="default" onClick={() => setAsking(null)}>
                Abbrechen
              </Button>
              <Button onClick={() => asking && void confirmBinding(asking)}>{texts.confirmButton}</Button>
            </Group>
          </Modal>
        </Paper>
      )}
      <Paper withBorder radius="md" p="md" component="section" aria-label="Dokumente">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h4">
              Dokumente
            </Title>
            <FileButton multiple resetRef={resetFiles} onChange={(files) => void upload(files)}>
              {(props) => (
                <Button variant="light" {...props}>
                  Dokumente hochladen
                </Button>
              )}
            </FileButton>
          </Group>
          <Text size="xs" c="dimmed">
            Höchstens {limits.maxFileCount} Dateien, jeweils bis {limits.maxFileSizeMb} MB.
          </Text>
          {order.attachments.length === 0 && <Text size="sm">Keine Dokumente vorhanden.</Text>}
          {order.attachments.map((d) => (
            <Group key={d.id} justify="space-between" data-testid="order-document">
              <Anchor
                component="button"
                type="button"
                onClick={() =>
                  void downloadApiFile(supplierOrderDocumentPath(order.supplierOrderNumber, d.id), d.fileName).catch(
                    () => toast.error('Das Dokument konnte nicht geladen werden.'),
                  )
                }
              >
                {d.fileName}
              </Anchor>
              <Button size="xs" variant="subtle" color="red" onClick={() => void remove(d.id)}>
                Löschen
              </Button>
            </Group>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
