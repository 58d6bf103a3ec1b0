import { z } from 'zod';
import { limits } from '../limits.ts';

/** Earliest date the supplier-order filters accept (spec: minimum 2024-01-01; the one value is limits.minDate). */
export const SUPPLIER_ORDER_MIN_DATE = limits.minDate;
export const SUPPLIER_ORDER_PAGE_SIZE = limits.supplierOrdersPageSize;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Bitte ein Datum im Format JJJJ-MM-TT angeben.');

export const SupplierOrderOverviewQuery = z
  .object({
    Page: z.coerce.number().int().min(1).max(100_000).default(1),
    PageSize: z.coerce.number().int().min(1).max(100).default(SUPPLIER_ORDER_PAGE_SIZE),
    Status: z.coerce.number().int().min(1).max(6).optional(),
    DateFrom: IsoDate.refine(
      (d) => d >= SUPPLIER_ORDER_MIN_DATE,
      'Das Datum darf nicht vor dem 01.01.2024 liegen.',
    ).optional(),
    DateTo: IsoDate.refine(
      (d) => d >= SUPPLIER_ORDER_MIN_DATE,
      'Das Datum darf nicht vor dem 01.01.2024 liegen.',
    ).optional(),
    SearchTerm: z.string().trim().max(100).optional(),
  })
  .refine((q) => !q.DateFrom || !q.DateTo || q.DateFrom <= q.DateTo, {
    message: 'Das Startdatum darf nicht nach dem Enddatum liegen.',
    path: ['DateFrom'],
  });

/** A row of the seller's 'Bestellungen' table (spec section 3, seller view). */
export const SupplierOrderOverviewItem = z
  .object({
    supplierOrderNumber: z.string(),
    orderPlaced: z.string(),
    customerName: z.string(),
    customerBpNumber: z.string(),
    supplierCustomerId: z.string().nullable(),
    supplierOrderStatusId: z.number().int(),
    sellerName: z.string(),
    /** As it stands (the confirmed total once confirmed). */
    totalPrice: z.number(),
    /** As ordered ('bestellt'). */
    orderedTotalPrice: z.number(),
  })
  .meta({ id: 'SupplierOrderOverviewItem' });

export const SupplierOrderOverview = z
  .object({
    items: z.array(SupplierOrderOverviewItem),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'SupplierOrderOverview' });

export const SupplierOrderStatusItem = z
  .object({ id: z.number().int(), name: z.string() })
  .meta({ id: 'SupplierOrderStatusItem' });

/** The values of one line as ordered or as confirmed. */
export const ConfirmationLineValues = z
  .object({
    lineNo: z.number().int(),
    articleNumber: z.string(),
    name: z.string(),
    quantity: z.number(),
    unitPrice: z.number().nullable(),
    deliveryDate: z.string().nullable(),
  })
  .meta({ id: 'ConfirmationLineValues' });

const OrderedAndConfirmedPair = z.object({ ordered: ConfirmationLineValues, confirmed: ConfirmationLineValues });

export const ItemsConfirmation = z
  .object({
    added: z.array(ConfirmationLineValues),
    orderedAndConfirmed: z.array(OrderedAndConfirmedPair),
    orderedAndChanged: z.array(OrderedAndConfirmedPair),
    orderedAndReplaced: z.array(OrderedAndConfirmedPair),
    removed: z.array(ConfirmationLineValues),
  })
  .meta({ id: 'ItemsConfirmation' });

export const LineConfirmationKind = z.enum(['confirmed', 'changed', 'replaced', 'removed', 'added']);

/** Per-line confirmation state shown next to the ordered values (null until confirmed). */
export const LineConfirmation = z
  .object({
    kind: LineConfirmationKind,
    quantity: z.number().nullable(),
    unitPrice: z.number().nullable(),
    deliveryDate: z.string().nullable(),
    articleNumber: z.string().nullable(),
    name: z.string().nullable(),
  })
  .meta({ id: 'LineConfirmation' });

export const SupplierOrderContact = z
  .object({
    name: z.string().nullable(),
    lineOne: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    countryCode: z.string().nullable(),
    taxIdentificationNo: z.string().nullable(),
    phoneNo: z.string().nullable(),
    faxNo: z.string().nullable(),
    emailAddress: z.string().nullable(),
  })
  .meta({ id: 'SupplierOrderContact' });

export const SupplierOrderDeliveryAddress = z
  .object({
    name: z.string().nullable(),
    lineOne: z.string().nullable(),
    lineTwo: z.string().nullable(),
    lineThree: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    countryCode: z.string().nullable(),
  })
  .meta({ id: 'SupplierOrderDeliveryAddress' });

export const SupplierOrderDocument = z
  .object({ id: z.number().int(), fileName: z.string(), size: z.number().int() })
  .meta({ id: 'SupplierOrderDocument' });

const Positive = z.number().positive().max(1_000_000);
const LineArticleNumber = z.string().trim().min(1).max(limits.orderLineArticleNumber);
const LineName = z.string().trim().min(1).max(limits.orderLineName);
const Price = z.number().min(0).max(100_000_000);

/** One ordered line in a ConfirmedWithChanges call; absent lines count as confirmed unchanged. */
export const LineChange = z
  .object({
    lineNo: z.number().int().positive(),
    removed: z.boolean().optional(),
    quantity: Positive.optional(),
    unitPrice: Price.optional(),
    deliveryDate: IsoDate.optional(),
    replacement: z
      .object({
        articleNumber: LineArticleNumber,
        /** The item's GTIN, when the supplier names it (EANCOM LIN C212 'EN'): the ordered article by its GTIN is no replacement. */
        gtin: z
          .string()
          .regex(/^\d{8,14}$/)
          .optional(),
        name: LineName,
      })
      .optional(),
  })
  .meta({ id: 'LineChange' });

export const AddedLine = z
  .object({
    articleNumber: LineArticleNumber,
    name: LineName,
    quantity: Positive,
    unitPrice: Price.nullable().optional(),
    deliveryDate: IsoDate.optional(),
  })
  .meta({ id: 'AddedLine' });

export const ConfirmationBody = z
  .object({
    lines: z.array(LineChange).max(1000).default([]),
    addedLines: z.array(AddedLine).max(1000).default([]),
  })
  .meta({ id: 'SupplierOrderConfirmationBody' });
export type ConfirmationBody = z.infer<typeof ConfirmationBody>;
export type ItemsConfirmation = z.infer<typeof ItemsConfirmation>;
export type ConfirmationLineValues = z.infer<typeof ConfirmationLineValues>;

/** Staff: inbound order responses (ORDRSP) as received, rejected ones with their reason (default filter). */
export const InboundOrderResponsesQuery = z.object({
  Outcome: z.enum(['rejected', 'applied', 'all']).default('rejected'),
  SupplierId: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
  PageSize: z.coerce.number().int().min(1).max(100).default(SUPPLIER_ORDER_PAGE_SIZE),
});

export const InboundOrderResponseItem = z
  .object({
    id: z.number().int(),
    supplierBpNumber: z.string().nullable(),
    supplierName: z.string().nullable(),
    source: z.string(),
    fileName: z.string().nullable(),
    supplierOrderNumber: z.string().nullable(),
    outcome: z.enum(['applied', 'rejected']),
    reason: z.string().nullable(),
    size: z.number().int(),
    receivedAt: z.string(),
  })
  .meta({ id: 'InboundOrderResponseItem' });

export const InboundOrderResponsePage = z
  .object({
    items: z.array(InboundOrderResponseItem),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'InboundOrderResponsePage' });

/** Basic-auth credentials a supplier's system uses for POST /inbound/ordrsp (set by administrators). */
export const InboundCredentialsInput = z
  .object({
    username: z
      .string()
      .trim()
      .min(3, 'Mindestens 3 Zeichen')
      .max(100, 'Maximal 100 Zeichen')
      .regex(/^[A-Za-z0-9._@-]+$/, 'Bitte nur Buchstaben, Ziffern und . _ @ - verwenden.'),
    password: z.string().min(12, 'Mindestens 12 Zeichen').max(200, 'Maximal 200 Zeichen'),
  })
  .meta({ id: 'InboundCredentialsInput' });
export type InboundCredentialsInput = z.infer<typeof InboundCredentialsInput>;

export const InboundCredentialsInfo = z
  .object({ supplierBpNumber: z.string(), username: z.string().nullable(), updatedAt: z.string().nullable() })
  .meta({ id: 'InboundCredentialsInfo' });

export const supplierOrderMessages = {
  documentLimits: (files: number, mb: number) =>
    `Bitte verwenden Sie nicht mehr als ${files} Dateien, jeweils nicht größer als ${mb} MB.`,
  confirmationNotAllowed: 'Diese Bestellung kann nicht bestätigt werden.',
  invalidConfirmationStatus: 'Ungültiger Bestätigungsstatus.',
  confirmationWithoutChanges: 'Bitte geben Sie mindestens eine Änderung an oder bestätigen Sie ohne Änderungen.',
  unknownLine: (lineNo: number) => `Position ${lineNo} gehört nicht zu dieser Bestellung.`,
  notFound: 'Bestellung nicht gefunden',
  documentNotFound: 'Dokument nicht gefunden',
  supplierNotFound: 'Lieferant nicht gefunden',
  inboundUsernameTaken: 'Dieser Benutzername wird bereits für einen anderen Lieferanten verwendet.',
  inboundResponseNotFound: 'Auftragsbestätigung nicht gefunden',
} as const;
