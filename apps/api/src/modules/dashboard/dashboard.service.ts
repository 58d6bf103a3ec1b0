import type pg from 'pg';
import {
  DEFAULT_SLA_WINDOW_HOURS,
  FeatureSettingKey,
  MAX_SLA_WINDOW_HOURS,
  type DashboardFigure,
  type DashboardGrouping,
} from '@shk/contracts';
import { notFound } from '../../http/problem.ts';
import {
  readRollup,
  readTopSuppliers,
  readWindows,
  rebuildSlaColumn,
  supplierExists,
  type RollupRow,
} from './dashboard.repo.ts';
import { periodsOf, previousRange } from './periods.ts';

export type Figure = 'count' | 'sla' | 'sum' | 'avg';

export interface FigureRequest {
  figure: Figure;
  start: string;
  end: string;
  grouping: DashboardGrouping;
  supplierBpNumber?: string;
  statusId?: number;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function valueOf(figure: Figure, s: Pick<RollupRow, 'count' | 'netSum' | 'reached' | 'slaMet'>): number | null {
  switch (figure) {
    case 'count':
      return s.count;
    case 'sum':
      return round(s.netSum, 2);
    case 'avg':
      return s.count > 0 ? round(s.netSum / s.count, 2) : null;
    case 'sla':
      return s.reached > 0 ? round((100 * s.slaMet) / s.reached, 2) : null;
  }
}

const zero = { count: 0, netSum: 0, reached: 0, slaMet: 0 };

/** The configured window (hours), clamped to 1..168; the rollup is brought to it when it differs. */
export async function ensureSlaWindow(client: pg.PoolClient): Promise<number> {
  const { rollup, configured } = await readWindows(client, FeatureSettingKey.SupplierOrderConfirmationWindowHours);
  const parsed = Math.round(Number(configured));
  const wanted =
    configured != null && Number.isFinite(parsed) && parsed >= 1
      ? Math.min(parsed, MAX_SLA_WINDOW_HOURS)
      : DEFAULT_SLA_WINDOW_HOURS;
  if (wanted !== rollup) await rebuildSlaColumn(client, wanted);
  return wanted;
}

export async function computeFigure(client: pg.PoolClient, req: FigureRequest): Promise<DashboardFigure> {
  if (req.supplierBpNumber && !(await supplierExists(client, req.supplierBpNumber)))
    throw notFound('Lieferant nicht gefunden');
  const slaWindowHours = req.figure === 'sla' ? await ensureSlaWindow(client) : undefined;
  const previous = previousRange(req.start, req.end);
  const rows = await readRollup(client, {
    start: req.start,
    end: req.end,
    previousStart: previous.start,
    grouping: req.grouping,
    supplierBpNumber: req.supplierBpNumber,
    statusId: req.statusId,
  });
  const byPeriod = new Map(rows.filter((r) => r.period).map((r) => [r.period!, r]));
  const total = { ...zero };
  for (const r of byPeriod.values()) {
    total.count += r.count;
    total.netSum += r.netSum;
    total.reached += r.reached;
    total.slaMet += r.slaMet;
  }
  const prev = rows.find((r) => r.period === null) ?? zero;
  return {
    total: valueOf(req.figure, total),
    previousTotal: valueOf(req.figure, prev),
    grouping: req.grouping,
    series: periodsOf(req.start, req.end, req.grouping).map((period) => ({
      period,
      value: valueOf(req.figure, byPeriod.get(period) ?? zero),
    })),
    ...(slaWindowHours ? { slaWindowHours } : {}),
  };
}

export async function topSuppliers(client: pg.PoolClient, f: { start: string; end: string; statusId?: number }) {
  const slaWindowHours = await ensureSlaWindow(client);
  const rows = await readTopSuppliers(client, { ...f, limit: 10 });
  return {
    slaWindowHours,
    items: rows.map((r) => ({
      bpNumber: r.bpNumber,
      name: r.name,
      count: r.count,
      netSum: round(r.netSum, 2),
      sla: valueOf('sla', r),
    })),
  };
}
