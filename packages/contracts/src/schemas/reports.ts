import { z } from 'zod';
import { limits } from '../limits.ts';
import { dateRangeIssues } from './dashboard.ts';

export const ReportType = {
  SupplierOrders: 1,
  SupplierOrderLines: 2,
  CustomerOrders: 3,
  SupplierCustomerRelations: 4,
  TransmissionFailures: 5,
  SearchTermsWithoutHits: 6,
} as const;
export type ReportType = (typeof ReportType)[keyof typeof ReportType];

export const reportTypeNames: Record<ReportType, string> = {
  1: 'Lieferantenbestellungen',
  2: 'Positionen der Lieferantenbestellungen',
  3: 'Kundenbestellungen',
  4: 'Lieferanten-Kunden-Beziehungen',
  5: 'Übertragungsfehler',
  6: 'Suchbegriffe ohne Treffer',
};

export const ReportFormat = ['xlsx', 'csv'] as const;
export type ReportFormat = (typeof ReportFormat)[number];

export const reportTexts = {
  /** The spec names the page 'My reports'; users read German only, so the title follows the menu's 'Berichte'. */
  title: 'Meine Berichte',
  reportType: 'Berichtstyp',
  format: 'Format',
  startDate: 'Startdatum',
  endDate: 'Enddatum',
  generate: 'Erzeugen',
  columns: {
    report: 'Bericht',
    startDate: 'Startdatum',
    endDate: 'Enddatum',
    createdAt: 'Erstellt am',
    status: 'Status',
    action: 'Aktion',
  },
  download: 'Herunterladen',
  empty: 'Noch keine Berichte erzeugt.',
  queued: 'Der Bericht wird erzeugt.',
  statuses: { 1: 'ausstehend', 2: 'in Arbeit', 3: 'erzeugt', 4: 'Fehler' } as Record<number, string>,
  unknownType: 'Unbekannter Berichtstyp.',
  pending: 'Es wird bereits ein Bericht erzeugt. Bitte warten Sie, bis er fertig ist.',
  generateFailed: 'Der Bericht konnte nicht erzeugt werden.',
} as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Datum im Format JJJJ-MM-TT erwartet.');

export const GenerateReportRequest = z
  .object({
    reportType: z.number().int(),
    startDate: isoDate,
    endDate: isoDate,
    format: z.enum(ReportFormat).default('xlsx'),
  })
  .superRefine((b, ctx) => {
    if (!(b.reportType in reportTypeNames))
      ctx.addIssue({ code: 'custom', path: ['reportType'], message: reportTexts.unknownType });
    for (const issue of dateRangeIssues(b.startDate, b.endDate))
      ctx.addIssue({
        code: 'custom',
        path: [issue.field === 'start' ? 'startDate' : 'endDate'],
        message: issue.message,
      });
  })
  .meta({ id: 'GenerateReportRequest' });
export type GenerateReportRequest = z.infer<typeof GenerateReportRequest>;

export const Report = z
  .object({
    id: z.number().int(),
    reportTypeId: z.number().int(),
    format: z.enum(ReportFormat),
    startDate: z.string(),
    endDate: z.string(),
    dateCreated: z.string(),
    reportGenerationStatusId: z.number().int(),
    failureReason: z.string().nullable(),
    fileName: z.string().nullable(),
    rowCount: z.number().int().nullable(),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof Report>;

export const ReportListQuery = z.object({
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
  PageSize: z.coerce.number().int().min(1).max(100).default(limits.reportsPageSize),
});

export const ReportList = z
  .object({
    items: z.array(Report),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'ReportList' });

export const ReportTypeItem = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'ReportTypeItem' });
