import { z } from 'zod';
import { limits } from '../limits.ts';

/** Periods of the dashboard series; boundaries are calendar units in Europe/Berlin (weeks start Monday). */
export const DashboardGrouping = ['day', 'week', 'month', 'year'] as const;
export type DashboardGrouping = (typeof DashboardGrouping)[number];

/** Default confirmation window of the SLA in hours (custom parameter SupplierOrderConfirmationWindowHours). */
export const DEFAULT_SLA_WINDOW_HOURS = 48;
/** Longest window the parameter may hold (one week). */
export const MAX_SLA_WINDOW_HOURS = 168;

export const dashboardTexts = {
  title: 'Mein Dashboard',
  from: 'Von',
  to: 'Bis',
  supplier: 'Lieferant',
  allSuppliers: 'Alle Lieferanten',
  status: 'Status',
  anyStatus: 'Alle Status',
  grouping: 'Gruppierung',
  groupings: { day: 'Tag', week: 'Woche', month: 'Monat', year: 'Jahr' } as Record<DashboardGrouping, string>,
  count: 'Anzahl Lieferantenbestellungen',
  sla: 'SLA (Bestätigung im Zeitfenster)',
  sum: 'Summe Nettowert',
  avg: 'Durchschnittlicher Nettowert',
  slaTooltip: (hours: number) =>
    `Anteil der an den Lieferanten übermittelten Lieferantenbestellungen, die innerhalb von ${hours} Stunden nach dem Versand bestätigt wurden (Status Bestätigt oder Bestätigt mit Änderungen), in Prozent.`,
  previous: 'gegenüber Vorperiode',
  topSuppliers: 'Top 10 Lieferanten nach Nettowert',
  showTable: 'Als Tabelle anzeigen',
  showChart: 'Als Diagramm anzeigen',
  period: 'Zeitraum',
  value: 'Wert',
  noData: 'Keine Daten im gewählten Zeitraum.',
  startAfterEnd: 'Das Startdatum darf nicht nach dem Enddatum liegen.',
  beforeMin: 'Das Datum darf nicht vor dem 01.01.2024 liegen.',
} as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Datum im Format JJJJ-MM-TT erwartet.');

/** Shared date rule of dashboard and reports: minimum 2024-01-01, start not after end. */
export function dateRangeIssues(start: string, end: string): { field: 'start' | 'end'; message: string }[] {
  const issues: { field: 'start' | 'end'; message: string }[] = [];
  if (start < limits.minDate) issues.push({ field: 'start', message: dashboardTexts.beforeMin });
  if (end < limits.minDate) issues.push({ field: 'end', message: dashboardTexts.beforeMin });
  if (start > end) issues.push({ field: 'start', message: dashboardTexts.startAfterEnd });
  return issues;
}

const dashboardQueryBase = z.object({
  StartDate: isoDate,
  EndDate: isoDate,
  Grouping: z.enum(DashboardGrouping).default('month'),
  StatusId: z.coerce.number().int().min(1).max(6).optional(),
});

function withDateRule<T extends z.ZodObject<{ StartDate: typeof isoDate; EndDate: typeof isoDate }>>(schema: T) {
  return schema.superRefine((q: { StartDate: string; EndDate: string }, ctx) => {
    for (const issue of dateRangeIssues(q.StartDate, q.EndDate))
      ctx.addIssue({
        code: 'custom',
        path: [issue.field === 'start' ? 'StartDate' : 'EndDate'],
        message: issue.message,
      });
  });
}

export const DashboardQuery = withDateRule(dashboardQueryBase);
export const DashboardBySellerQuery = withDateRule(
  dashboardQueryBase.extend({ SupplierBpNumber: z.string().min(1).max(20) }),
);
export type DashboardQuery = z.infer<typeof DashboardQuery>;
export type DashboardBySellerQuery = z.infer<typeof DashboardBySellerQuery>;

export const DashboardPoint = z
  .object({
    /** First day of the period (Berlin calendar), e.g. the Monday of a week. */
    period: z.string(),
    /** null where the figure is undefined (average or SLA of a period without orders). */
    value: z.number().nullable(),
  })
  .meta({ id: 'DashboardPoint' });

export const DashboardFigure = z
  .object({
    total: z.number().nullable(),
    /** The same figure over the period of the same length just before StartDate. */
    previousTotal: z.number().nullable(),
    grouping: z.enum(DashboardGrouping),
    series: z.array(DashboardPoint),
    /** SLA only: the confirmation window in hours used for the figure. */
    slaWindowHours: z.number().int().optional(),
  })
  .meta({ id: 'DashboardFigure' });
export type DashboardFigure = z.infer<typeof DashboardFigure>;

export const DashboardTopSuppliersQuery = withDateRule(dashboardQueryBase.omit({ Grouping: true }));
export const DashboardTopSupplier = z
  .object({
    bpNumber: z.string(),
    name: z.string(),
    count: z.number().int(),
    netSum: z.number(),
    sla: z.number().nullable(),
  })
  .meta({ id: 'DashboardTopSupplier' });
export const DashboardTopSuppliers = z
  .object({ items: z.array(DashboardTopSupplier), slaWindowHours: z.number().int() })
  .meta({ id: 'DashboardTopSuppliers' });
