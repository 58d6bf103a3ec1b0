/** What every format and channel of the transmission module works on: one supplier order, read once per attempt. */
export interface OrderAddress {
  name: string | null;
  contactPerson?: string | null;
  additionalInfo?: string | null;
  street: string | null;
  houseNumber: string | null;
  postalCode: string | null;
  city: string | null;
  countryCode: string | null;
}

export interface OrderLineForTransmission {
  lineNo: number;
  articleNumber: string;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerNumber: string | null;
  name: string;
  quantity: number;
  unitCode: string | null;
  unitPrice: number | null;
  priceBasis: number;
  quantityPrice: number | null;
  deliveryDate: string | null;
  projectCode: string | null;
  projectDescription: string | null;
  comment: string | null;
  deliveryAddress: OrderAddress | null;
  attachments: { id: number; fileName: string; contentType: string; size: number }[];
}

export interface SupplierOrderForTransmission {
  id: number;
  supplierOrderNumber: string;
  customerOrderNumber: string;
  placedAt: Date;
  isTest: boolean;
  /** The buyer's reference ('Kommission / Ihre Bestellreferenz') and note for the whole order, or null. */
  orderReference?: string | null;
  orderNote?: string | null;
  supplier: {
    bpNumber: string;
    name: string;
    gln: string | null;
    headquarterGln: string | null;
    address: OrderAddress;
  };
  buyer: {
    bpNumber: string;
    name: string;
    supplierCustomerNumber: string | null;
    address: OrderAddress;
    contactName: string | null;
    contactEmail: string | null;
  };
  /** The order-level delivery address (the customer order's dispatch text) when lines carry none. */
  dispatchTo: string | null;
  netValue: number;
  deliveryCost: number;
  lines: OrderLineForTransmission[];
}

/** One generated document: the seam between formats and channels. */
export interface TransmissionDocument {
  formatId: number;
  fileName: string;
  mediaType: string;
  content: Buffer;
}

/** order → bytes + file name + media type, one per data format (Pdf 1, Edi_96A 2, Edi_97A 3). */
export interface SupplierOrderDocument {
  readonly formatId: number;
  render(order: SupplierOrderForTransmission, context: { platformGln: string }): Promise<TransmissionDocument>;
}

export interface WorkflowConnection {
  id: number;
  name: string;
  protocolId: number;
  host: string | null;
  port: number | null;
  username: string | null;
  password: string | null;
  privateKey: string | null;
  baseUrl: string | null;
  timeoutMs: number;
  /** AS2 workflows only: the partner's certificate (PEM), encryption and MDN mode. */
  as2?: As2Settings | null;
}

export interface As2Settings {
  partnerCertificate: string | null;
  encryption: 'none' | 'aes128' | 'aes256';
  mdnMode: 'sync' | 'async';
}

/** Where an order goes: the supplier's outbound settings plus the connection profile they name. */
export interface TransmissionTarget {
  protocolId: number;
  dataFormatIds: number[];
  emailAddresses: string[];
  folder: string | null;
  as2Identifier: string | null;
  as2Url: string | null;
  workflow: WorkflowConnection | null;
}

export interface TransmissionRequest {
  order: SupplierOrderForTransmission;
  target: TransmissionTarget;
  documents: TransmissionDocument[];
  /** Buyer attachments (mail channels attach them; file channels list them in the PDF only). */
  attachments: { fileName: string; contentType: string; content: Buffer }[];
  /** Stable per supplier order across retries and resends: lets the receiver or the channel drop a repeat. */
  idempotencyKey: string;
  /** Unique per attempt ('<attempt>-<random hex>'): file channels name temporary and unique files with it. */
  messageId: string;
}

export interface TransmissionOutcome {
  remoteNames: string[];
  messageId?: string;
  externalOrderId?: string;
}

/** How a supplier order reaches the supplier, one per outbound protocol id. Throws to have the attempt retried. */
export interface OrderTransmitter {
  readonly protocolId: number;
  transmit(request: TransmissionRequest): Promise<TransmissionOutcome>;
  /** Releases kept connections (called when the worker stops). */
  close?(): Promise<void>;
}

/** A failure that no retry can fix (missing configuration): the order fails at once. */
export class PermanentTransmissionError extends Error {}
