import { z } from 'zod';

/** Lines of one quick order (Schnellerfassung); 500 lines answer within 2 s. */
export const QUICK_ORDER_MAX_LINES = 1_000;

export const QuickOrderLineStatus = z.enum([
  'Added',
  'Ambiguous',
  'NotFound',
  'NotOrderable',
  'QuantityAdjusted',
  'Invalid',
]);
export type QuickOrderLineStatus = z.infer<typeof QuickOrderLineStatus>;

export const quickOrderMessages = {
  title: 'Schnellerfassung',
  intro:
    'Fügen Sie Artikelnummern oder GTINs mit Mengen ein (eine Position je Zeile, getrennt durch Tabulator, Semikolon, Komma oder Leerzeichen; optional die Lieferantennummer) oder laden Sie eine CSV- oder Excel-Datei hoch.',
  statusLabels: {
    Added: 'Wird hinzugefügt',
    Ambiguous: 'Mehrdeutig – bitte auswählen',
    NotFound: 'Nicht gefunden',
    NotOrderable: 'Nicht bestellbar',
    QuantityAdjusted: 'Menge angepasst',
    Invalid: 'Zeile nicht lesbar',
  } satisfies Record<QuickOrderLineStatus, string>,
  noLines: 'Bitte geben Sie mindestens eine Zeile ein.',
  tooManyLines: (n: number) => `Bitte erfassen Sie höchstens ${n} Zeilen auf einmal.`,
  invalidQuantity: 'Die Menge ist keine gültige Zahl.',
  fileFormat: 'Bitte laden Sie eine CSV- oder XLSX-Datei hoch.',
  notOrderable: 'Dieses Produkt ist aktuell nicht verfügbar.',
  noRelation: 'Keine freigegebene Geschäftsbeziehung zu diesem Lieferanten.',
  quantityAdjusted: (q: string) => `Menge auf ${q} angepasst (Mindest- bzw. Staffelmenge).`,
  added: (n: number) =>
    n === 1 ? '1 Position wurde in den Warenkorb gelegt.' : `${n} Positionen wurden in den Warenkorb gelegt.`,
} as const;

export const QuickOrderCandidate = z
  .object({
    productInstanceId: z.string(),
    supplierBusinessPartnerNo: z.string(),
    supplierName: z.string(),
    articleNumber: z.string(),
    gtin: z.string().nullable(),
    productName: z.string(),
    unitPrice: z.number().nullable(),
    priceBasis: z.number(),
    unit: z.string().nullable(),
    minOrderQuantity: z.number(),
    quantityInterval: z.number().nullable(),
    orderableStatus: z.number().int(),
  })
  .meta({ id: 'QuickOrderCandidate' });

export const QuickOrderLineResult = z
  .object({
    line: z.number().int().describe('Zeilennummer der Eingabe (1 = erste Zeile)'),
    input: z.string(),
    articleNumber: z.string(),
    requestedQuantity: z.number().nullable(),
    quantity: z.number().nullable().describe('Menge, die in den Warenkorb gelegt wird'),
    status: QuickOrderLineStatus,
    message: z.string().nullable(),
    productInstanceId: z.string().nullable().describe('Gewähltes Angebot (bei Added/QuantityAdjusted)'),
    candidates: z.array(QuickOrderCandidate).describe('Angebote zur Auswahl (bei Ambiguous), sonst das gefundene'),
  })
  .meta({ id: 'QuickOrderLineResult' });
export type QuickOrderLineResult = z.infer<typeof QuickOrderLineResult>;

export const QuickOrderLineInput = z.object({
  articleNumber: z.string().trim().min(1).max(100),
  quantity: z.number().positive().max(1_000_000),
  supplierBusinessPartnerNo: z.string().max(20).optional(),
  productInstanceId: z.string().max(200).optional().describe('Auswahl bei mehrdeutigen Zeilen'),
});

export const QuickOrderRequest = z
  .object({
    text: z
      .string()
      .max(200_000)
      .optional()
      .describe('Eingefügte Zeilen: Artikelnummer/GTIN, Menge, optional Lieferant'),
    lines: z.array(QuickOrderLineInput).max(QUICK_ORDER_MAX_LINES).optional(),
    confirm: z
      .boolean()
      .default(false)
      .describe('false: nur Vorschau; true: alle bestellbaren Zeilen auf einmal hinzufügen'),
  })
  .meta({ id: 'QuickOrderRequest' });
export type QuickOrderRequest = z.infer<typeof QuickOrderRequest>;

export const QuickOrderResponse = z
  .object({
    confirmed: z.boolean(),
    addedCount: z.number().int(),
    lines: z.array(QuickOrderLineResult),
  })
  .meta({ id: 'QuickOrderResponse' });
export type QuickOrderResponse = z.infer<typeof QuickOrderResponse>;
