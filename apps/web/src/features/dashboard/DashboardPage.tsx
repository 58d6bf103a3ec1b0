import { useMemo, useState } from 'react';
import {
  Alert,
  Select,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  Group,
  Paper,
} from '@mantine/core';
import {
  DEFAULT_SLA_WINDOW_HOURS,
  DashboardGrouping,
  dashboardTexts,
  dateRangeIssues,
  limits,
  supplierOrderStatusLabels,
} from '@shk/contracts';
import { Page } from '../../ui/Page';
import { problemTitle } from '../../api/problem';
import {
  useFigure,
  useSupplierOptions,
  useTopSuppliers,
  type DashboardFilter,
  type FigureKey,
} from '../../api/dashboard';
import { formatFigure, todayInBerlin } from './dashboard-format';
import { FigureChart, FigureTile } from './FigureCard';
import { GermanDateInput } from '../../ui/GermanDateInput';
import { InfoIcon } from '../../ui/icons';

const figures: { key: FigureKey; label: string }[] = [
  { key: 'count', label: dashboardTexts.count },
  { key: 'sla', label: dashboardTexts.sla },
  { key: 'sum', label: dashboardTexts.sum },
  { key: 'avg', label: dashboardTexts.avg },
];
const ALL = 'all';

export default function DashboardPage() {
  const [start, setStart] = useState<string>(limits.minDate);
  const [end, setEnd] = useState<string>(todayInBerlin());
  const [grouping, setGrouping] = useState<DashboardGrouping>('month');
  const [supplier, setSupplier] = useState<string>(ALL);
  const [status, setStatus] = useState<string | null>(null);

  const issues = dateRangeIssues(start || '', end || '');
  const valid = Boolean(start && end) && issues.length === 0;
  const filter: DashboardFilter = useMemo(
    () => ({
      start,
      end,
      grouping,
      supplier: supplier === ALL ? null : supplier,
      statusId: status ? Number(status) : null,
    }),
    [start, end, grouping, supplier, status],
  );
  const results = {
    count: useFigure('count', filter, valid),
    sla: useFigure('sla', filter, valid),
    sum: useFigure('sum', filter, valid),
    avg: useFigure('avg', filter, valid),
  };
  const top = useTopSuppliers(filter, valid);
  const suppliers = useSupplierOptions();
  const windowHours = results.sla.data?.slaWindowHours ?? DEFAULT_SLA_WINDOW_HOURS;
  const failed = Object.values(results).find((r) => r.error)?.error ?? top.error;

  return (
    <Page title={dashboardTexts.title}>
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter">
        <GermanDateInput
          label={dashboardTexts.from}
          value={start}
          min={limits.minDate}
          onChange={setStart}
          error={issues.find((i) => i.field === 'start')?.message}
        />
        <GermanDateInput
          label={dashboardTexts.to}
          value={end}
          min={start || limits.minDate}
          onChange={setEnd}
          error={issues.find((i) => i.field === 'end')?.message}
        />
        <Select
          label={dashboardTexts.supplier}
          data={[{ value: ALL, label: dashboardTexts.allSuppliers }, ...(suppliers.data ?? [])]}
          value={supplier}
          onChange={(v) => setSupplier(v ?? ALL)}
          allowDeselect={false}
          searchable
          w={280}
        />
        <Select
          label={dashboardTexts.status}
          placeholder={dashboardTexts.anyStatus}
          data={Object.entries(supplierOrderStatusLabels).map(([value, label]) => ({ value, label }))}
          value={status}
          onChange={setStatus}
          clearable
          w={220}
        />
        <div>
          <Text size="sm" fw={500} id="dashboard-grouping-label">
            {dashboardTexts.grouping}
          </Text>
          <SegmentedControl
            aria-labelledby="dashboard-grouping-label"
            value={grouping}
            onChange={(v) => setGrouping(v as DashboardGrouping)}
            data={DashboardGrouping.map((g) => ({ value: g, label: dashboardTexts.groupings[g] }))}
          />
        </div>
      </Group>

      {failed ? (
        <Alert color="red">{problemTitle(failed, 'Die Kennzahlen konnten nicht geladen werden.')}</Alert>
      ) : null}

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {figures.map((f) => (
          <FigureTile
            key={f.key}
            figure={f.key}
            label={f.label}
            data={results[f.key].data}
            loading={results[f.key].isFetching}
            hint={f.key === 'sla' ? dashboardTexts.slaTooltip(windowHours) : undefined}
          />
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {figures.map((f) => (
          <FigureChart
            key={f.key}
            figure={f.key}
            label={f.label}
            data={results[f.key].data}
            loading={results[f.key].isFetching}
          />
        ))}
      </SimpleGrid>

      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {dashboardTexts.topSuppliers}
          </Title>
          <Table.ScrollContainer minWidth={480}>
            <Table striped withTableBorder data-testid="top-suppliers" captionSide="bottom">
              <Table.Caption ta="left">{`SLA: ${dashboardTexts.slaTooltip(windowHours)}`}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{dashboardTexts.supplier}</Table.Th>
                  <Table.Th ta="right">{dashboardTexts.count}</Table.Th>
                  <Table.Th ta="right">{dashboardTexts.sum}</Table.Th>
                  <Table.Th ta="right">
                    {/* Reachable by keyboard (focus opens the tooltip); the caption below says the same in text. */}
                    <Tooltip
                      label={dashboardTexts.slaTooltip(windowHours)}
                      multiline
                      w={320}
                      events={{ hover: true, focus: true, touch: true }}
                    >
                      <Text component="span" inherit tabIndex={0} data-testid="top-suppliers-sla-help">
                        SLA <InfoIcon size={14} style={{ verticalAlign: '-2px' }} data-testid="info-icon" />
                      </Text>
                    </Tooltip>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(top.data?.items ?? []).map((s) => (
                  <Table.Tr key={s.bpNumber}>
                    <Table.Td>
                      {s.name} ({s.bpNumber})
                    </Table.Td>
                    <Table.Td ta="right">{formatFigure('count', s.count)}</Table.Td>
                    <Table.Td ta="right">{formatFigure('sum', s.netSum)}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatFigure('sla', s.sla)}
                    </Table.Td>
                  </Table.Tr>
                ))}
                {top.data && top.data.items.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={4}>{dashboardTexts.noData}</Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      </Paper>
    </Page>
  );
}
