import { useState } from 'react';
import { Alert, Badge, Button, Group, Pagination, Paper, Select, Table } from '@mantine/core';
import {
  ReportGenerationStatus,
  dateRangeIssues,
  limits,
  problemToast,
  reportTexts,
  reportTypeNames,
  type ReportType,
} from '@shk/contracts';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';
import { formatDate, formatDateTime } from '../../ui/format';
import { ApiError, problemTitle } from '../../api/problem';
import { downloadApiFile } from '../../api/download';
import { isUnfinished, useGenerateReport, useReportTypes, useReports } from '../../api/reports';
import { GermanDateInput } from '../../ui/GermanDateInput';

const statusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'green', 4: 'red' };
const errorToast = (e: unknown) =>
  toast.error(problemToast(e instanceof ApiError ? e.problem : { title: reportTexts.generateFailed }));

export default function ReportsPage() {
  const [type, setType] = useState<string | null>(null);
  const [format, setFormat] = useState<'xlsx' | 'csv'>('xlsx');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [page, setPage] = useState(1);
  const types = useReportTypes();
  const reports = useReports(page);
  const generate = useGenerateReport();

  const issues = start && end ? dateRangeIssues(start, end) : [];
  const pending = generate.isPending || (reports.data?.items.some(isUnfinished) ?? false);
  const canGenerate = Boolean(type && start && end) && issues.length === 0 && !pending;

  const submit = () =>
    generate.mutate(
      { reportType: Number(type), startDate: start, endDate: end, format },
      { onSuccess: () => toast.info(reportTexts.queued), onError: errorToast },
    );

  return (
    <Page title={reportTexts.title}>
      <Paper withBorder p="md">
        <Group align="flex-start" wrap="wrap">
          <Select
            label={reportTexts.reportType}
            data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
            value={type}
            onChange={setType}
            w={320}
            required
          />
          <Select
            label={reportTexts.format}
            data={[
              { value: 'xlsx', label: 'Excel (XLSX)' },
              { value: 'csv', label: 'CSV' },
            ]}
            value={format}
            onChange={(v) => setFormat(v === 'csv' ? 'csv' : 'xlsx')}
            allowDeselect={false}
            w={160}
          />
          <GermanDateInput
            label={reportTexts.startDate}
            value={start}
            min={limits.minDate}
            onChange={setStart}
            error={issues.find((i) => i.field === 'start')?.message}
            required
          />
          <GermanDateInput
            label={reportTexts.endDate}
            value={end}
            min={start || limits.minDate}
            onChange={setEnd}
            error={issues.find((i) => i.field === 'end')?.message}
            required
          />
          <Button mt={25} onClick={submit} disabled={!canGenerate} loading={generate.isPending}>
            {reportTexts.generate}
          </Button>
        </Group>
      </Paper>

      {reports.error ? (
        <Alert color="red">{problemTitle(reports.error, 'Die Berichte konnten nicht geladen werden.')}</Alert>
      ) : null}

      {/* On a phone the table scrolls in its own box; the page itself never scrolls sideways. */}
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder data-testid="reports-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{reportTexts.columns.report}</Table.Th>
              <Table.Th>{reportTexts.columns.startDate}</Table.Th>
              <Table.Th>{reportTexts.columns.endDate}</Table.Th>
              <Table.Th>{reportTexts.columns.createdAt}</Table.Th>
              <Table.Th>{reportTexts.columns.status}</Table.Th>
              <Table.Th>{reportTexts.columns.action}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(reports.data?.items ?? []).map((r) => (
              <Table.Tr key={r.id} data-report-id={r.id}>
                <Table.Td>
                  {reportTypeNames[r.reportTypeId as ReportType] ?? r.reportTypeId} ({r.format.toUpperCase()})
                </Table.Td>
                <Table.Td>{formatDate(`${r.startDate}T12:00:00`)}</Table.Td>
                <Table.Td>{formatDate(`${r.endDate}T12:00:00`)}</Table.Td>
                <Table.Td>{formatDateTime(r.dateCreated)}</Table.Td>
                <Table.Td>
                  <Badge
                    color={statusColor[r.reportGenerationStatusId]}
                    variant="light"
                    title={r.failureReason ?? undefined}
                  >
                    {reportTexts.statuses[r.reportGenerationStatusId]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {r.reportGenerationStatusId === ReportGenerationStatus.Completed ? (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() =>
                        downloadApiFile(
                          `/v1/Reports/Download/${r.id}`,
                          r.fileName ?? `bericht-${r.id}.${r.format}`,
                        ).catch(errorToast)
                      }
                    >
                      {reportTexts.download}
                    </Button>
                  ) : (
                    r.failureReason
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
            {reports.data && reports.data.items.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={6}>{reportTexts.empty}</Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {reports.data && reports.data.totalPages > 1 ? (
        <Pagination value={page} onChange={setPage} total={reports.data.totalPages} aria-label="Seiten" />
      ) : null}
    </Page>
  );
}
