import { z } from 'zod';
import { messages } from '../messages.ts';

/** Status of a supplier catalogue import. */
export const CatalogueImportStatus = z.enum([
  'Pending',
  'InProgress',
  'AwaitingApproval',
  'Completed',
  'Failed',
  'Discarded',
  'RolledBack',
]);
export type CatalogueImportStatus = z.infer<typeof CatalogueImportStatus>;

/** The German name of each status (screen and CSV). */
export const catalogueImportStatusLabels: Record<CatalogueImportStatus, string> = {
  Pending: 'Wartet',
  InProgress: 'Läuft',
  AwaitingApproval: 'Wartet auf Freigabe',
  Completed: 'Abgeschlossen',
  Failed: 'Fehlgeschlagen',
  Discarded: 'Verworfen',
  RolledBack: 'Rückgängig gemacht',
};

/** At most this many warnings are kept and shown per import (the count covers all). */
export const CATALOGUE_IMPORT_MAX_WARNINGS = 1_000;
/** An applied import can be undone this many days after it ended. */
export const CATALOGUE_IMPORT_UNDO_DAYS = 30;
/** Defaults of a supplier's full-catalogue limits (percent): withdrawn share of the assortment, rejected share. */
export const CATALOGUE_IMPORT_DEFAULT_MAX_WITHDRAW_PERCENT = 20;
export const CATALOGUE_IMPORT_DEFAULT_MAX_REJECT_PERCENT = 5;
/** Offers a waiting import lists as a sample of what it would withdraw. */
export const CATALOGUE_IMPORT_WITHDRAW_SAMPLE = 20;
/**
 * Longest texts an import keeps (characters); a longer text is cut and the import lists a warning. The portal's
 * own limits, above BMEcat's (DESCRIPTION_SHORT 150): real files exceed those and the names still fit the screens.
 */
export const CATALOGUE_IMPORT_TEXT_LIMITS = {
  shortDescription: 300,
  longDescription: 64_000,
  manufacturerTypeDescr: 100,
  keyword: 100,
} as const;

/** At most this many rejections are kept and shown per import. */
export const CATALOGUE_IMPORT_MAX_REJECTIONS = 1_000;

export const catalogueImportMessages = {
  uploadMissing: 'Bitte wählen Sie eine Katalogdatei aus.',
  unknownFormat:
    'Das Dateiformat wurde nicht erkannt. Erwartet wird BMEcat 2005 (XML, auch als ZIP) oder DATANORM 4/5.',
  zipWithoutCatalogue: 'Die ZIP-Datei enthält keine BMEcat-XML- oder DATANORM-Datei.',
  notASupplier: 'Lieferant nicht gefunden',
  importNotFound: 'Katalogimport nicht gefunden',
  started: 'Der Katalogimport wurde gestartet.',
  approved: 'Der Katalogimport wurde freigegeben.',
  discarded: 'Der Katalogimport wurde verworfen.',
  undone: 'Der Katalogimport wurde rückgängig gemacht.',
  settingsSaved: 'Die Grenzwerte wurden gespeichert.',
  mediaFallbackUrl: 'Bitte geben Sie eine http- oder https-Adresse ein.',
  mediaAccessSaved: 'Der Medienzugang wurde gespeichert.',
  mediaAccessNotSaved: 'Der Medienzugang konnte nicht gespeichert werden.',
  notAwaitingApproval: 'Dieser Import wartet nicht auf Freigabe.',
  notUndoable: 'Dieser Import kann nicht rückgängig gemacht werden.',
  undoExpired: 'Ein Import kann nur bis 30 Tage nach seinem Ende rückgängig gemacht werden.',
  newerImport: 'Nach diesem Import wurde bereits ein neuerer Import des Lieferanten gestartet.',
  supersededWhileWaiting:
    'Durch einen neueren Import des Lieferanten ersetzt: nichts wurde zurückgezogen, neue und geänderte Artikel bleiben.',
  importRunning: 'Für diesen Lieferanten läuft gerade ein Import. Bitte versuchen Sie es gleich noch einmal.',
  noAcceptedProducts: 'Die Datei enthält keinen übernehmbaren Artikel.',
  tooManyWithdrawals: (share: string, limit: string) =>
    `Der Import würde ${share} % des Sortiments zurückziehen (Grenze ${limit} %).`,
  tooManyRejections: (share: string, limit: string) => `${share} % der Artikel wurden abgelehnt (Grenze ${limit} %).`,
  invalidGtin: (reason: string) => `${reason} Der Artikel wurde ohne GTIN übernommen.`,
  unknownUnit: (unit: string) =>
    `Die Bestelleinheit „${unit}“ ist unbekannt. Der Artikel wurde mit der Einheit Stück (C62) übernommen.`,
  unknownEtimClass: (code: string) =>
    `Die ETIM-Klasse „${code}“ ist keine gültige ETIM-Klasse. Der Artikel wurde ohne Klasse und Merkmale übernommen.`,
  textCut: (field: string, limit: number) =>
    `${field} ist länger als ${limit.toLocaleString('de-DE')} Zeichen und wurde gekürzt.`,
  invalidNumber: (reason: string) => `${reason} Der Wert wurde nicht übernommen.`,
} as const;

export const CatalogueImportRejection = z
  .object({
    position: z.number().int().describe('Position des Artikels in der Datei (1 = erster Artikel) bzw. Zeilennummer'),
    productId: z.string().nullable().describe('Artikelnummer des Lieferanten, soweit lesbar'),
    reason: z.string(),
  })
  .meta({ id: 'CatalogueImportRejection' });

export const CatalogueImportCounts = z
  .object({
    read: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    deleted: z.number().int().describe('Zurückgezogene Angebote (bei T_NEW_CATALOG nicht mehr in der Datei)'),
    rejected: z.number().int(),
    warnings: z.number().int().describe('Artikel übernommen, aber ein Wert fehlt, wurde gekürzt oder ersetzt'),
  })
  .meta({ id: 'CatalogueImportCounts' });

export const CatalogueImportPreview = z
  .object({
    assortment: z.number().int().describe('Angebote des Lieferanten vor dem Import'),
    toWithdraw: z.number().int().describe('Angebote, die der Import zurückziehen würde'),
    withdrawPercent: z.number(),
    rejectedPercent: z.number(),
    maxWithdrawPercent: z.number(),
    maxRejectPercent: z.number(),
    reasons: z.array(z.string()).describe('Warum der Import auf Freigabe wartet'),
  })
  .meta({ id: 'CatalogueImportPreview' });
export type CatalogueImportPreview = z.infer<typeof CatalogueImportPreview>;

const UserRef = z.object({ id: z.string(), name: z.string() }).nullable();

export const CatalogueImport = z
  .object({
    id: z.number().int(),
    supplierBusinessPartnerNo: z.string(),
    fileName: z.string(),
    format: z.string().nullable().describe('BMEcat 2005, DATANORM 4 oder DATANORM 5'),
    transaction: z.string().nullable().describe('T_NEW_CATALOG, T_UPDATE_PRODUCTS, T_UPDATE_PRICES bzw. DATANORM'),
    status: CatalogueImportStatus,
    counts: CatalogueImportCounts,
    error: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    preview: CatalogueImportPreview.nullable(),
    startedBy: UserRef.describe('Wer den Import gestartet hat'),
    approvedBy: UserRef.describe('Wer die Rücknahme freigegeben hat'),
    approvedAt: z.string().nullable(),
    revertedBy: UserRef.describe('Wer den Import verworfen oder rückgängig gemacht hat'),
    revertedAt: z.string().nullable(),
    undoableUntil: z.string().nullable().describe('Bis wann der Import rückgängig gemacht werden kann'),
  })
  .meta({ id: 'CatalogueImport' });
export type CatalogueImport = z.infer<typeof CatalogueImport>;

export const CatalogueImportDetails = CatalogueImport.extend({
  rejections: z.array(CatalogueImportRejection),
  warnings: z.array(CatalogueImportRejection),
  withdrawSample: z
    .array(z.object({ productId: z.string(), name: z.string().nullable() }))
    .describe('Beispiele der Angebote, die ein wartender Import zurückziehen würde'),
}).meta({ id: 'CatalogueImportDetails' });
export type CatalogueImportDetails = z.infer<typeof CatalogueImportDetails>;

export const CatalogueImportSettings = z
  .object({
    maxWithdrawPercent: z.number().min(0).max(100),
    maxRejectPercent: z.number().min(0).max(100),
    /**
     * Where the supplier's server gives out its media besides the catalogue's addresses: the medium's file name is
     * looked up under this address first, then at the catalogue's address. Absent: unchanged.
     */
    mediaFallbackBaseUrl: z
      .string()
      .trim()
      .max(500, messages.maxChars(500))
      .regex(/^https?:\/\/[^\s]+$/i, catalogueImportMessages.mediaFallbackUrl)
      .nullable()
      .optional()
      .describe('Ausweichadresse der Medien (wird zuerst versucht)'),
    /** Bearer token for the supplier's media server; write-only (absent: unchanged, null or empty: removed). */
    mediaAccessToken: z
      .string()
      .trim()
      .max(2000, messages.maxChars(2000))
      .nullable()
      .optional()
      .describe('Zugangstoken für den Medienserver des Lieferanten (wird nie zurückgegeben)'),
    mediaAccessTokenSet: z.boolean().optional().describe('Ein Zugangstoken für die Medien ist hinterlegt'),
  })
  .meta({ id: 'CatalogueImportSettings' });
export type CatalogueImportSettings = z.infer<typeof CatalogueImportSettings>;

/** Why an import ended Failed or a medium was not stored: crash, disk and media-by-URL texts (German). */
export const catalogueImportFailureTexts = {
  abandoned: (attempts: number) =>
    `Der Import wurde ${attempts}-mal abgebrochen (Neustart oder Absturz des Servers) und wird nicht mehr fortgesetzt. Bitte laden Sie die Datei erneut hoch.`,
  zipTooLarge: (unpackedMb: number, limitMb: number) =>
    `Die ZIP-Datei würde entpackt ${unpackedMb.toLocaleString('de-DE')} MB belegen; erlaubt sind höchstens ${limitMb.toLocaleString('de-DE')} MB. Bitte teilen Sie den Katalog auf oder packen Sie weniger Mediendateien hinein.`,
  zipRatio: (ratio: number) =>
    `Die ZIP-Datei ist verdächtig stark komprimiert (entpackt mehr als das ${ratio.toLocaleString('de-DE')}-Fache ihrer Größe) und wurde nicht entpackt.`,
  zipBroken: 'Die ZIP-Datei ist beschädigt und konnte nicht entpackt werden.',
  fileMissing: 'Die hochgeladene Datei ist nicht mehr vorhanden. Bitte laden Sie sie erneut hoch.',
  diskFull: 'Auf dem Server ist kein Speicherplatz mehr frei. Bitte versuchen Sie es später erneut.',
  internal: (detail: string) =>
    `Der Import ist an einem internen Fehler gescheitert (${detail}). Bitte versuchen Sie es erneut oder wenden Sie sich an den Support.`,
  mediaNotFetched: (url: string, reason: string) => `Das Medium „${url}“ konnte nicht geladen werden: ${reason}`,
  mediaReasons: {
    scheme: 'nur http- und https-Adressen werden geladen.',
    address: 'die Adresse zeigt auf ein internes Netz.',
    dns: 'der Server ist nicht erreichbar.',
    redirects: 'zu viele Weiterleitungen.',
    status: (status: number) => `der Server antwortete mit ${status}.`,
    tooLarge: (mb: number) => `die Datei ist größer als ${mb.toLocaleString('de-DE')} MB.`,
    type: 'der Inhalt ist kein JPEG-, PNG- oder PDF-Dokument.',
    pictureType: 'der Inhalt ist kein JPEG- oder PNG-Bild.',
    timeout: 'der Server antwortete nicht rechtzeitig.',
    quota: (mb: number) =>
      `das Speicherkontingent des Lieferanten (${mb.toLocaleString('de-DE')} MB) ist ausgeschöpft.`,
    failed: 'die Verbindung ist fehlgeschlagen.',
  },
} as const;
