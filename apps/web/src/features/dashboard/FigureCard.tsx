import { useId, useState } from 'react';
import { Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { BarChart, LineChart } from '@mantine/charts';
import { dashboardTexts } from '@shk/contracts';
import type { DashboardFigure, FigureKey } from '../../api/dashboard';
import { InfoIcon } from '../../ui/icons';
import { formatChange, formatFigure, formatPeriod } from './dashboard-format';

interface Props {
  figure: FigureKey;
  label: string;
  data: DashboardFigure | undefined;
  loading: boolean;
  /** SLA only: the definition shown as tooltip. */
  hint?: string;
}

/** A tile (total and change against the previous period). */
export function FigureTile({ figure, label, data, loading, hint }: Props) {
  const change = data ? formatChange(figure, data.total, data.previousTotal) : null;
  const heading = (
    <Text size="sm" c="dimmed" component="h2" m={0} fw={500} tabIndex={hint ? 0 : undefined}>
      {label}
      {hint ? <InfoIcon size={14} style={{ marginLeft: 4, verticalAlign: '-2px' }} data-testid="info-icon" /> : null}
    </Text>
  );
  return (
    <Paper withBorder p="md" data-testid={`tile-${figure}`} aria-busy={loading}>
      {hint ? (
        <Tooltip label={hint} multiline w={320} events={{ hover: true, focus: true, touch: true }}>
          {heading}
        </Tooltip>
      ) : (
        heading
      )}
      <Text size="xl" fw={700} style={{ whiteSpace: 'nowrap' }} data-testid={`tile-${figure}-value`}>
        {data ? formatFigure(figure, data.total) : '…'}
      </Text>
      <Text size="xs" c="dimmed">
        {change ? `${change} ${dashboardTexts.previous}` : ' '}
      </Text>
    </Paper>
  );
}

/** The series as a chart, or as a table for keyboard and screen-reader users (same data). */
export function FigureChart({ figure, label, data }: Props) {
  const [asTable, setAsTable] = useState(false);
  const tableId = useId();
  const rows = (data?.series ?? []).map((p) => ({ period: formatPeriod(p.period, data!.grouping), value: p.value }));
  const valueFormatter = (v: number) => formatFigure(figure, v);
  const Chart = figure === 'sla' || figure === 'avg' ? LineChart : BarChart;
  return (
    <Paper withBorder p="md" data-testid={`chart-${figure}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} size="h5">
            {label}
          </Title>
          <Button variant="subtle" size="xs" onClick={() => setAsTable((v) => !v)} aria-controls={tableId}>
            {asTable ? dashboardTexts.showChart : dashboardTexts.showTable}
          </Button>
        </Group>
        {asTable ? (
          <Table id={tableId} striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{dashboardTexts.period}</Table.Th>
                <Table.Th ta="right">{dashboardTexts.value}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.period}>
                  <Table.Td>{r.period}</Table.Td>
                  <Table.Td ta="right">{formatFigure(figure, r.value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <div id={tableId} role="img" aria-label={`${label}: Diagramm`}>
            <Chart
              h={220}
              data={rows}
              dataKey="period"
              series={[{ name: 'value', label, color: figure === 'sla' ? 'teal.6' : 'blue.6' }]}
              valueFormatter={valueFormatter}
              // Counts have whole ticks only: fractional ticks rounded for display read '1, 1, 1, 0, 0'.
              yAxisProps={figure === 'count' ? { allowDecimals: false } : undefined}
              withLegend={false}
            />
          </div>
        )}
      </Stack>
    </Paper>
  );
}
