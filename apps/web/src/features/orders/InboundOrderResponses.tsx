import { useState } from 'react';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { downloadApiFile } from '../../api/download';
import {
  inboundResponseContentPath,
  useRejectedInboundResponses,
  type InboundOrderResponseItem,
} from '../../api/supplier-orders';
import type { DataTableColumn } from '../../ui/DataTable';
import { ListScaffold } from '../../ui/ListScaffold';
import { formatDateTime } from '../../ui/format';
import { toast } from '../../ui/toast';

const sourceLabels: Record<string, string> = { http: 'HTTP', sftp: 'SFTP', ftp: 'FTP' };

/**
 * Staff: order responses (ORDRSP) a supplier sent that were not applied (malformed, unknown order, rule
 * violated), with the reason and the file as received. Nothing of them was applied to any order.
 */
export function InboundOrderResponses() {
  const [page, setPage] = useState(1);
  const list = useRejectedInboundResponses(page, true);
  const columns: DataTableColumn<InboundOrderResponseItem>[] = [
    { key: 'received', header: 'Empfangen', nowrap: true, render: (r) => formatDateTime(r.receivedAt) },
    {
      key: 'supplier',
      header: 'Lieferant',
      render: (r) => [r.supplierName, r.supplierBpNumber].filter(Boolean).join(' · ') || '–',
    },
    { key: 'source', header: 'Kanal', render: (r) => sourceLabels[r.source] ?? r.source },
    { key: 'order', header: 'Bestellnummer', render: (r) => r.supplierOrderNumber ?? '–' },
    { key: 'reason', header: 'Grund', render: (r) => r.reason ?? '–' },
    {
      key: 'file',
      header: 'Datei',
      render: (r) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() =>
            void downloadApiFile(inboundResponseContentPath(r.id), r.fileName ?? `ORDRSP_${r.id}.edi`).catch(() =>
              toast.error('Die Datei konnte nicht geladen werden.'),
            )
          }
        >
          {r.fileName ?? `ORDRSP_${r.id}.edi`}
        </Anchor>
      ),
    },
  ];
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Abgelehnte Auftragsbestätigungen">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Abgelehnte Auftragsbestätigungen
        </Title>
        <Text size="sm" c="dimmed">
          Elektronische Auftragsbestätigungen (ORDRSP), die nicht übernommen wurden. Keine davon wurde teilweise
          angewendet.
        </Text>
        <ListScaffold
          error={list.isError && 'Die Auftragsbestätigungen konnten nicht geladen werden.'}
          label="Abgelehnte Auftragsbestätigungen"
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(r) => r.id}
          loading={list.isPending}
          emptyText="Keine abgelehnten Auftragsbestätigungen"
          testId="inbound-responses"
          totalCount={list.data?.totalCount}
          noun={{ one: 'Auftragsbestätigung', many: 'Auftragsbestätigungen' }}
          page={page - 1}
          totalPages={list.data?.totalPages ?? 1}
          onPageChange={(p) => setPage(p + 1)}
        />
      </Stack>
    </Paper>
  );
}
