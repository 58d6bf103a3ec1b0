import { useState } from 'react';
import { Badge, Button, Group, Paper, Select } from '@mantine/core';
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
import { isUnfinished, useGenerateReport, useReportTypes, useReports, type ReportPage } from '../../api/reports';
import type { DataTableColumn } from '../../ui/DataTable';
import { ListScaffold } from '../../ui/ListScaffold';
import { GermanDateInput } from '../../ui/GermanDateInput';

const statusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'green', 4: 'red' };
const errorToast = (e: unknown) =>
  toast.error(problemToast(e instanceof ApiError ? e.problem : { title: reportTexts.generateFailed }));

type ReportItem = ReportPage['items'][number];

const reportColumns: DataTableColumn<ReportItem>[] = [
  {
    key: 'report',
    header: reportTexts.columns.report,
    render: (r) => `${reportTypeNames[r.reportTypeId as ReportType] ?? r.reportTypeId} (${r.format.toUpperCase()})`,
  },
  {
    key: 'start',
    header: reportTexts.columns.startDate,
    nowrap: true,
    render: (r) => formatDate(`${r.startDate}T12:00:00`),
  },
  { key: 'end', header: reportTexts.columns.endDate, nowrap: true, render: (r) => formatDate(`${r.endDate}T12:00:00`) },
  { key: 'created', header: reportTexts.columns.createdAt, nowrap: true, render: (r) => formatDateTime(r.dateCreated) },
  {
    key: 'status',
    header: reportTexts.columns.status,
    render: (r) => (
      <Badge color={statusColor[r.reportGenerationStatusId]} variant="light" title={r.failureReason ?? undefined}>
        {reportTexts.statuses[r.reportGenerationStatusId]}
      </Badge>
    ),
  },
  {
    key: 'action',
    header: reportTexts.columns.action,
    render: (r) =>
      r.reportGenerationStatusId === ReportGenerationStatus.Completed ? (
        <Button
          size="xs"
          variant="light"
          onClick={() =>
            downloadApiFile(`/v1/Reports/Download/${r.id}`, r.fileName ?? `bericht-${r.id}.${r.format}`).catch(
              errorToast,
            )
          }
        >
          {reportTexts.download}
        </Button>
      ) : (
        r.failureReason
      ),
  },
];

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

      <ListScaffold
        error={reports.error && problemTitle(reports.error, 'Die Berichte konnten nicht geladen werden.')}
        label={reportTexts.title}
        columns={reportColumns}
        rows={reports.data?.items ?? []}
        rowKey={(r) => r.id}
        loading={reports.isPending}
        emptyText={reportTexts.empty}
        testId="reports-table"
        totalCount={reports.data?.totalCount}
        noun={{ one: 'Bericht', many: 'Berichte' }}
        page={page - 1}
        totalPages={reports.data?.totalPages ?? 1}
        onPageChange={(p) => setPage(p + 1)}
      />
    </Page>
  );
}
