import { z } from 'zod';
import { Attachment } from './carts.ts';
import { limits } from '../limits.ts';
import { messages } from '../messages.ts';
import {
  ItemsConfirmation,
  LineConfirmation,
  SupplierOrderContact,
  SupplierOrderDeliveryAddress,
  SupplierOrderDocument,
} from './supplier-orders.ts';

export * from './supplier-orders.ts';

export const OrderListQuery = z.object({
  PageSize: z.coerce.number().int().min(1).max(100).default(10),
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
  Year: z.coerce.number().int().min(2000).max(2100).optional(),
  /** Order number, article number or name, or project code or description (part of it, any case). */
  Search: z.string().trim().max(limits.orderSearch, messages.maxChars(limits.orderSearch)).optional(),
});

/** Optional free text of the whole order: empty or blank is stored as none. */
const orderText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, messages.maxChars(max))
    .transform((v) => v || null)
    .nullable()
    .optional();

/** What the buyer adds to the whole order at checkout ('Kommission / Ihre Bestellreferenz' and a note). */
export const CheckoutBody = z
  .object({
    orderReference: orderText(limits.orderReference),
    orderNote: orderText(limits.orderNote),
  })
  .meta({ id: 'CheckoutBody' });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** 'Erneut bestellen': into an existing cart of the partner, or into a new cart of the given name. */
export const ReorderBody = z
  .object({
    cartId: z.number().int().positive().optional(),
    newCartName: z.string().trim().min(1).max(limits.cartName, messages.maxChars(limits.cartName)).optional(),
  })
  .refine((b) => (b.cartId == null) !== (b.newCartName == null), {
    message: 'Bitte wählen Sie einen Warenkorb oder geben Sie einen Namen für einen neuen an.',
  })
  .meta({ id: 'ReorderBody' });

const ReorderLine = z.object({
  articleNumber: z.string(),
  name: z.string(),
  supplierName: z.string(),
  quantity: z.number(),
});

export const ReorderResult = z
  .object({
    /** The cart the lines went into; null when no line was orderable (no cart was made or changed). */
    cartId: z.number().int().nullable(),
    cartName: z.string().nullable(),
    added: z.array(ReorderLine),
    /** Lines no longer orderable (offer gone, relation missing or inactive, quantity no longer allowed). */
    unavailable: z.array(ReorderLine.extend({ reason: z.string() })),
  })
  .meta({ id: 'ReorderResult' });

const IdName = z.object({ id: z.union([z.number(), z.string()]), name: z.string() });

const listEnvelope = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z.array(item),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    availableBuyerNames: z.array(z.string()),
    availableOrderStatuses: z.array(IdName),
    availableOrderYears: z.array(z.number().int()),
    availableSellers: z.array(IdName),
  });

export const CustomerOrderListItem = z
  .object({
    orderNumber: z.string(),
    orderDate: z.string(),
    dispatchTo: z.string().nullable(),
    customerOrderStatusId: z.number().int(),
    /** As it stands (confirmed values where the suppliers confirmed). */
    totalValueExcludingVat: z.number(),
    /** As ordered ('bestellt'). */
    orderedValueExcludingVat: z.number(),
    buyerName: z.string(),
    buyerBpNumber: z.string(),
  })
  .meta({ id: 'CustomerOrderListItem' });
export const CustomerOrderList = listEnvelope(CustomerOrderListItem).meta({ id: 'CustomerOrderList' });

export const SupplierOrderListItem = z
  .object({
    orderNumber: z.string(),
    customerOrderNumber: z.string(),
    orderDate: z.string(),
    supplierId: z.string(),
    supplierName: z.string(),
    buyerName: z.string(),
    buyerBpNumber: z.string(),
    supplierCustomerId: z.string().nullable(),
    supplierOrderStatusId: z.number().int(),
    /** As it stands (the confirmed total once confirmed). */
    totalValueExcludingVat: z.number(),
    /** As ordered ('bestellt'). */
    orderedValueExcludingVat: z.number(),
  })
  .meta({ id: 'SupplierOrderListItem' });
export const SupplierOrderList = listEnvelope(SupplierOrderListItem).meta({ id: 'SupplierOrderList' });

export const OrderAddress = z
  .object({
    name: z.string().nullable().optional(),
    contactPerson: z.string().nullable().optional(),
    additionalInfo: z.string().nullable().optional(),
    street: z.string().nullable().optional(),
    houseNumber: z.string().nullable().optional(),
    postalCode: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    countryCode: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
    phoneNumber: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    taxNumber: z.string().nullable().optional(),
    vatId: z.string().nullable().optional(),
  })
  .meta({ id: 'OrderAddress' });

/** A line's values as ordered ('bestellt'); a line the supplier added has quantity and value 0. */
export const OrderedLineValues = z
  .object({
    articleNumber: z.string(),
    name: z.string(),
    quantity: z.number(),
    unitPrice: z.number().nullable(),
    quantityPrice: z.number().nullable(),
    deliveryDate: z.string().nullable(),
  })
  .meta({ id: 'OrderedLineValues' });

/**
 * An order line as it stands: after the supplier's confirmation its article, name, quantity, prices and date are
 * the confirmed ones (a removed line has quantity 0), before it the ordered ones; `ordered` keeps what was ordered.
 */
export const OrderLine = z
  .object({
    lineId: z.number().int(),
    lineNo: z.number().int(),
    productInstanceId: z.string(),
    articleNumber: z.string(),
    producerNumber: z.string().nullable(),
    manufacturerName: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    unitPrice: z.number().nullable(),
    priceBasis: z.number(),
    quantityPrice: z.number().nullable(),
    quantity: z.number(),
    unitCode: z.string().nullable(),
    priceOnRequest: z.boolean(),
    deliveryDate: z.string().nullable(),
    projectCode: z.string().nullable(),
    comment: z.string().nullable(),
    deliveryAddress: OrderAddress.nullable(),
    images: z.array(z.string()),
    attachments: z.array(Attachment),
    confirmation: LineConfirmation.nullable(),
    ordered: OrderedLineValues,
  })
  .meta({ id: 'OrderLine' });

export const SupplierOrderDetails = z
  .object({
    supplierOrderNumber: z.string(),
    supplierId: z.string(),
    supplierName: z.string(),
    supplierOrderStatusId: z.number().int(),
    orderPlaced: z.string(),
    supplierCustomerId: z.string().nullable(),
    externalOrderId: z.string().nullable(),
    orderedTotal: z.number(),
    confirmedTotal: z.number().nullable(),
    /** The order's value as it stands: confirmedTotal once confirmed, else orderedTotal. */
    total: z.number(),
    deliveryCost: z.number(),
    documentId: z.string(),
    contact: SupplierOrderContact,
    deliveryAddress: SupplierOrderDeliveryAddress.nullable(),
    attachments: z.array(SupplierOrderDocument),
    itemsConfirmation: ItemsConfirmation.nullable(),
    sentAt: z.string().nullable(),
    confirmedAt: z.string().nullable(),
    /**
     * The seller may set Confirmed / ConfirmedWithChanges in the portal: the supplier's inbound protocol is
     * e-mail and the order is in Sent (spec section 4). Otherwise the status is displayed only.
     */
    confirmableInPortal: z.boolean(),
    /** The buyer's reference and note for the whole order (null when none was given). */
    orderReference: z.string().nullable(),
    orderNote: z.string().nullable(),
    lines: z.array(OrderLine),
  })
  .meta({ id: 'SupplierOrderDetails' });

export const CustomerOrderDetails = z
  .object({
    customerOrderNumber: z.string(),
    orderPlaced: z.string(),
    /** The net value as it stands: the suppliers' confirmed totals where they confirmed, the ordered values elsewhere. */
    orderTotal: z.number(),
    /** The net value as ordered ('bestellt'). */
    orderedTotal: z.number(),
    deliveryCostTotal: z.number(),
    customerOrderStatus: z.number().int(),
    customerAddress: OrderAddress,
    dispatchTo: z.string().nullable(),
    buyerBpNumber: z.string(),
    dateModified: z.string(),
    orderReference: z.string().nullable(),
    orderNote: z.string().nullable(),
    supplierOrdersDetails: z.array(SupplierOrderDetails),
  })
  .meta({ id: 'CustomerOrderDetails' });
