import { z } from 'zod';

/** Status of a supplier catalogue import (issue 15). */
export const CatalogueImportStatus = z.enum(['Pending', 'InProgress', 'Completed', 'Failed']);
export type CatalogueImportStatus = z.infer<typeof CatalogueImportStatus>;

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
  })
  .meta({ id: 'CatalogueImportCounts' });

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
  })
  .meta({ id: 'CatalogueImport' });
export type CatalogueImport = z.infer<typeof CatalogueImport>;

export const CatalogueImportDetails = CatalogueImport.extend({
  rejections: z.array(CatalogueImportRejection),
}).meta({ id: 'CatalogueImportDetails' });
export type CatalogueImportDetails = z.infer<typeof CatalogueImportDetails>;

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
    timeout: 'der Server antwortete nicht rechtzeitig.',
    quota: (mb: number) =>
      `das Speicherkontingent des Lieferanten (${mb.toLocaleString('de-DE')} MB) ist ausgeschöpft.`,
    failed: 'die Verbindung ist fehlgeschlagen.',
  },
} as const;
