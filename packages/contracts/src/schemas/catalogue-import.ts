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
