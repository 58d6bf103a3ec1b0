/** Status enums with their numeric ids, exactly as the spec lists them. */
export const CustomerOrderStatus = {
  Created: 1,
  AwaitingConfirmation: 2,
  PartiallyConfirmed: 3,
  Confirmed: 4,
  ConfirmedWithChanges: 5,
  Cancelled: 6,
} as const;
export type CustomerOrderStatus = (typeof CustomerOrderStatus)[keyof typeof CustomerOrderStatus];

export const SupplierOrderStatus = {
  Created: 1,
  Sent: 2,
  SendingFailed: 3,
  Confirmed: 4,
  ConfirmedWithChanges: 5,
  Cancelled: 6,
} as const;
export type SupplierOrderStatus = (typeof SupplierOrderStatus)[keyof typeof SupplierOrderStatus];

/**
 * The customer order's status follows from its supplier orders: nothing confirmed yet and
 * something still unsent → Created; everything sent → AwaitingConfirmation; some confirmed →
 * PartiallyConfirmed; all settled → Confirmed / ConfirmedWithChanges; all cancelled → Cancelled.
 */
export function deriveCustomerOrderStatus(supplierStatuses: number[]): CustomerOrderStatus {
  const S = SupplierOrderStatus;
  if (!supplierStatuses.length) return CustomerOrderStatus.Created;
  const live = supplierStatuses.filter((s) => s !== S.Cancelled);
  if (!live.length) return CustomerOrderStatus.Cancelled;
  const confirmed = live.filter((s) => s === S.Confirmed || s === S.ConfirmedWithChanges);
  if (confirmed.length === live.length) {
    return confirmed.some((s) => s === S.ConfirmedWithChanges) || live.length < supplierStatuses.length
      ? CustomerOrderStatus.ConfirmedWithChanges
      : CustomerOrderStatus.Confirmed;
  }
  if (confirmed.length) return CustomerOrderStatus.PartiallyConfirmed;
  if (live.every((s) => s === S.Sent)) return CustomerOrderStatus.AwaitingConfirmation;
  return CustomerOrderStatus.Created;
}

export const ProductOrderableStatus = {
  Orderable: 1,
  NotOrderable: 2,
  RelationMissing: 3,
  RelationNotActive: 4,
  UnitNotSupported: 5,
} as const;
export type ProductOrderableStatus = (typeof ProductOrderableStatus)[keyof typeof ProductOrderableStatus];

export const ProductDataSource = {
  None: 0,
  Wholesaler: 1,
  TwoTierManufacturer: 2,
  ThreeTierManufacturer: 3,
  TwoAndThreeTierManufacturer: 4,
} as const;
export type ProductDataSource = (typeof ProductDataSource)[keyof typeof ProductDataSource];

/**
 * Business-partner organisation types (same numbering as the product data source).
 * @alias
 */
export const OrganisationType = ProductDataSource;
export type OrganisationType = ProductDataSource;

export const RelationStatus = {
  Approved: 1,
  AwaitingConfirmation: 2,
  Rejected: 3,
  CustomerIdRequested: 4,
  Blocked: 6,
  Invalid: 7,
} as const;
export type RelationStatus = (typeof RelationStatus)[keyof typeof RelationStatus];
/** The buyer and seller lists filter on these four; staff see all six. */
export const defaultRelationStatuses: readonly RelationStatus[] = [1, 2, 3, 4];
export const allRelationStatuses: readonly RelationStatus[] = [1, 2, 3, 4, 6, 7];

export const SupplierStatus = { Active: 1, NonActive: 2, InCommunicationTest: 3 } as const;
export type SupplierStatus = (typeof SupplierStatus)[keyof typeof SupplierStatus];

export const ReportGenerationStatus = { Pending: 1, InProgress: 2, Completed: 3, Failed: 4 } as const;
export type ReportGenerationStatus = (typeof ReportGenerationStatus)[keyof typeof ReportGenerationStatus];

export const CommunicationProtocol = { Email: 1, Sftp: 2, As2: 3, Http: 4, Ftp: 5, Api: 6 } as const;
export const CommunicationDataFormat = { Pdf: 1, Edi_96A: 2, Edi_97A: 3 } as const;

/** Value types of custom parameters (§4: 1–5); 6 'Geheimnis' is ours: write-only values, never returned by the API. */
export const CustomParameterType = { Integer: 1, Number: 2, Varchar: 3, Date: 4, Email: 5, Secret: 6 } as const;
export type CustomParameterType = (typeof CustomParameterType)[keyof typeof CustomParameterType];

export const IdsMatchResult = {
  Matched: 'Matched',
  SupplierNotMatched: 'SupplierNotMatched',
  SupplierRelationshipNotMatched: 'SupplierRelationshipNotMatched',
  QuantityNotMatched: 'QuantityNotMatched',
  NotMatched: 'NotMatched',
} as const;

/** German labels of order statuses (the spec leaves them open; chosen to match the trade's wording). */
export const customerOrderStatusLabels: Record<number, string> = {
  1: 'Erstellt',
  2: 'Wartet auf Bestätigung',
  3: 'Teilweise bestätigt',
  4: 'Bestätigt',
  5: 'Mit Änderungen bestätigt',
  6: 'Storniert',
};
/**
 * Sent (2) means the order reached the supplier's system, not that goods left: craftsmen read 'Versendet' as
 * 'shipped'. Transmission wording ('übermittelt') is kept apart from delivery wording ('geliefert', 'versandt').
 */
export const supplierOrderStatusLabels: Record<number, string> = {
  1: 'Erstellt',
  2: 'An Lieferant übermittelt',
  3: 'Versand fehlgeschlagen',
  4: 'Bestätigt',
  5: 'Mit Änderungen bestätigt',
  6: 'Storniert',
};

/** German labels of the relation states (a module without zod: the SPA's shared code shows them). */
export const relationStatusLabels: Record<number, string> = {
  1: 'Freigegeben',
  2: 'Wartet auf Bestätigung',
  3: 'Abgelehnt',
  4: 'Kundennummer angefragt',
  6: 'Gesperrt',
  7: 'Ungültig',
};

/** Protocols whose outbound interface needs a folder and a workflow (connection profile). */
export const workflowProtocols: readonly number[] = [CommunicationProtocol.Ftp, CommunicationProtocol.Sftp];
