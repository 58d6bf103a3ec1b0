import { useState } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { quickOrderMessages } from '@shk/contracts';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import { problemTitle } from '../../api/problem';
import { formatCurrency, formatQuantity } from '../../ui/format';
import { quickOrderApi, type QuickOrderLine, type QuickOrderResponse } from '../../api/quick-order';
import { FileDropzone } from '../../ui/FileDropzone';
import { BarcodeScanButton } from '../../ui/barcode/BarcodeScanButton';

/** The quick order takes one list: CSV, text or Excel, within the upload size the server accepts. */
const LIST_FILE_LIMITS = { maxFileCount: 1, maxFileSizeMb: 5, allowedExtensions: ['.csv', '.txt', '.xlsx'] };

type Candidate = QuickOrderLine['candidates'][number];

/** An offer as the choice of an ambiguous line shows it: name, supplier, article number and its price. */
const candidateLabel = (c: Candidate) =>
  `${c.productName} – ${c.supplierName} (${c.articleNumber}) – ${
    c.unitPrice === null
      ? 'Preis auf Anfrage'
      : `${formatCurrency(c.unitPrice)}${c.priceBasis !== 1 ? ` je ${formatQuantity(c.priceBasis)}` : ''}`
  }`;

const statusColor: Record<QuickOrderLine['status'], string> = {
  Added: 'green',
  QuantityAdjusted: 'yellow',
  Ambiguous: 'blue',
  NotFound: 'red',
  NotOrderable: 'red',
  Invalid: 'red',
};

const formatQuantityOrDash = (q: number | null) => (q === null ? '–' : formatQuantity(q));

/** Schnellerfassung: paste article numbers or upload a list, check the preview, then add everything at once. */
export default function QuickOrderPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<QuickOrderResponse | null>(null);
  const [choices, setChoices] = useState<Record<number, string>>({});
  const given = Number(params.get('cartId'));
  const cart = useQuery({
    queryKey: ['quick-order', 'cart', given || 'default'],
    queryFn: async () => (given > 0 ? given : quickOrderApi.defaultCartId()),
  });

  const check = useMutation({
    mutationFn: async () =>
      file ? quickOrderApi.previewFile(cart.data!, file) : quickOrderApi.previewText(cart.data!, text),
    onSuccess: (result) => {
      setPreview(result);
      setChoices({});
    },
    onError: (error) => toast.error(problemTitle(error, quickOrderMessages.noLines)),
  });

  const chosen = (line: QuickOrderLine) => line.productInstanceId ?? choices[line.line] ?? null;
  const addable = preview?.lines.filter((l) => chosen(l) && l.status !== 'NotOrderable') ?? [];

  const confirm = useMutation({
    mutationFn: () =>
      quickOrderApi.confirm(
        cart.data!,
        addable.map((l) => ({
          articleNumber: l.articleNumber,
          quantity: l.quantity ?? l.requestedQuantity ?? 1,
          productInstanceId: chosen(l)!,
        })),
      ),
    onSuccess: async (result) => {
      toast.success(quickOrderMessages.added(result.addedCount));
      await queryClient.invalidateQueries();
      navigate(`/warenkorb/${cart.data}`);
    },
    onError: (error) => toast.error(problemTitle(error, quickOrderMessages.notOrderable)),
  });

  return (
    <Page title={quickOrderMessages.title}>
      <Text c="dimmed">{quickOrderMessages.intro}</Text>
      <Stack gap="sm" maw={720}>
        <Group gap="xs" justify="flex-end">
          <Text size="sm" c="dimmed">
            Barcode mit der Kamera erfassen
          </Text>
          {/* A scanned GTIN becomes a line of its own with quantity 1 (the buyer may change it before checking). */}
          <BarcodeScanButton
            size="md"
            onScan={(code) => {
              setFile(null);
              setText((current) => `${current.trim() ? `${current.trimEnd()}\n` : ''}${code};1`);
              setPreview(null);
            }}
          />
        </Group>
        <Textarea
          label="Artikelnummern und Mengen"
          placeholder={'NB-4711;2\n4006501234568\t5\nKR-15-1 10 200001'}
          autosize
          minRows={6}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setPreview(null);
          }}
          disabled={!!file}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} component="span" id="quick-order-file-label">
            Oder Datei hochladen (CSV, XLSX)
          </Text>
          <FileDropzone
            files={file ? [file] : []}
            onChange={(files) => {
              setFile(files[0] ?? null);
              setPreview(null);
            }}
            limits={LIST_FILE_LIMITS}
            label="Artikelliste hierher ziehen oder klicken, um eine Datei auszuwählen"
          />
        </Stack>
        <Group>
          <Button
            onClick={() => check.mutate()}
            loading={check.isPending}
            disabled={!cart.data || (!text.trim() && !file)}
          >
            Prüfen
          </Button>
        </Group>
      </Stack>

      {preview && (
        <Stack gap="sm">
          {/* Six columns do not fit a phone: the table scrolls in its own box, the page stays put. */}
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder aria-label="Vorschau der Schnellerfassung">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Zeile</Table.Th>
                  <Table.Th>Eingabe</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Artikel</Table.Th>
                  <Table.Th>Menge</Table.Th>
                  <Table.Th>Preis</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.lines.map((line) => {
                  // An ambiguous line has no offer (and so no price) until the buyer chooses one.
                  const offer =
                    line.status === 'Ambiguous'
                      ? line.candidates.find((c) => c.productInstanceId === chosen(line))
                      : (line.candidates.find((c) => c.productInstanceId === chosen(line)) ?? line.candidates[0]);
                  return (
                    <Table.Tr key={line.line} data-testid={`quick-order-line-${line.line}`}>
                      <Table.Td>{line.line}</Table.Td>
                      <Table.Td>{line.input}</Table.Td>
                      <Table.Td>
                        <Badge color={statusColor[line.status]}>{quickOrderMessages.statusLabels[line.status]}</Badge>
                        {line.message && (
                          <Text size="xs" c="dimmed">
                            {line.message}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {line.status === 'Ambiguous' ? (
                          <Select
                            aria-label={`Angebot für Zeile ${line.line}`}
                            placeholder="Angebot wählen"
                            data={line.candidates.map((c) => ({
                              value: c.productInstanceId,
                              label: candidateLabel(c),
                            }))}
                            value={choices[line.line] ?? null}
                            onChange={(v) => setChoices((all) => ({ ...all, [line.line]: v ?? '' }))}
                          />
                        ) : offer ? (
                          <Stack gap={0}>
                            <Text size="sm">{offer.productName}</Text>
                            <Text size="xs" c="dimmed">
                              {offer.supplierName} · {offer.articleNumber}
                            </Text>
                          </Stack>
                        ) : (
                          '–'
                        )}
                      </Table.Td>
                      <Table.Td>{formatQuantityOrDash(line.quantity ?? line.requestedQuantity)}</Table.Td>
                      <Table.Td data-testid="quick-order-price">
                        {offer && offer.unitPrice !== null ? formatCurrency(offer.unitPrice) : '–'}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {addable.length === 0 && <Alert color="yellow">Keine der Zeilen kann in den Warenkorb gelegt werden.</Alert>}
          <Group>
            <Button onClick={() => confirm.mutate()} loading={confirm.isPending} disabled={addable.length === 0}>
              {`${addable.length} ${addable.length === 1 ? 'Position' : 'Positionen'} in den Warenkorb legen`}
            </Button>
          </Group>
        </Stack>
      )}
    </Page>
  );
}
