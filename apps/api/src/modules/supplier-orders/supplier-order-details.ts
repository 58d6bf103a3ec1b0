import { CommunicationProtocol, SupplierOrderStatus } from '@shk/contracts';
import {
  confirmedValues,
  itemsConfirmationOf,
  lineConfirmationOf,
  type ConfirmableLineRow,
} from './confirmation-view.ts';
import type { Queryable } from '../../db/queryable.ts';
import { supplierOrderDetailRows } from './supplier-orders.repo.ts';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const num = (v: string | number | null) => (v == null ? null : Number(v));

interface LineValueColumns {
  quantity_price: string | number | null;
  confirmed_quantity_price: string | number | null;
}

/**
 * The line as it stands: the supplier's confirmed values once the order is confirmed (a removed line: quantity 0,
 * value 0), the ordered ones before. Every view shows these; the ordered values go along as `ordered`.
 */
function currentLineValues(l: ConfirmableLineRow & LineValueColumns) {
  if (!l.confirmation_kind)
    return {
      articleNumber: l.article_number,
      name: l.name,
      quantity: Number(l.quantity),
      unitPrice: num(l.unit_price),
      quantityPrice: num(l.quantity_price),
      deliveryDate: l.delivery_date,
    };
  const c = confirmedValues(l);
  const removed = l.confirmation_kind === 'removed';
  return {
    articleNumber: c.articleNumber,
    name: c.name,
    quantity: removed ? 0 : c.quantity,
    unitPrice: c.unitPrice,
    quantityPrice: removed ? 0 : num(l.confirmed_quantity_price),
    deliveryDate: c.deliveryDate,
  };
}

/** What the buyer ordered ('bestellt'); a line the supplier added was not ordered: quantity and value 0. */
function orderedLineValues(l: ConfirmableLineRow & LineValueColumns) {
  const added = l.confirmation_kind === 'added';
  return {
    articleNumber: l.article_number,
    name: l.name,
    quantity: added ? 0 : Number(l.quantity),
    unitPrice: num(l.unit_price),
    quantityPrice: added ? 0 : num(l.quantity_price),
    deliveryDate: l.delivery_date,
  };
}

interface AddressJson {
  name?: string | null;
  contactPerson?: string | null;
  additionalInfo?: string | null;
  street?: string | null;
  houseNumber?: string | null;
  postalCode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  phoneNumber?: string | null;
  email?: string | null;
  taxNumber?: string | null;
  vatId?: string | null;
}

const streetLine = (a: AddressJson) => [a.street, a.houseNumber].filter(Boolean).join(' ') || null;

function contactOf(a: AddressJson | null) {
  const x = a ?? {};
  return {
    name: x.name ?? null,
    lineOne: streetLine(x),
    postalCode: x.postalCode ?? null,
    city: x.city ?? null,
    countryCode: x.countryCode ?? null,
    taxIdentificationNo: x.vatId ?? x.taxNumber ?? null,
    phoneNo: x.phoneNumber ?? null,
    faxNo: null,
    emailAddress: x.email ?? null,
  };
}

function deliveryAddressOf(a: AddressJson | null) {
  if (!a) return null;
  return {
    name: a.name ?? null,
    lineOne: a.contactPerson ?? null,
    lineTwo: streetLine(a),
    lineThree: a.additionalInfo ?? null,
    postalCode: a.postalCode ?? null,
    city: a.city ?? null,
    countryCode: a.countryCode ?? null,
  };
}

/**
 * Supplier orders in the spec's detail shape (section 3), shared by the buyer's customer-order detail,
 * the seller's detail and the staff view, so all three show the same confirmation state.
 */
export async function supplierOrderDetails(db: Queryable, supplierOrderIds: number[]) {
  if (!supplierOrderIds.length) return [];
  const { rows, lines, files, documents } = await supplierOrderDetailRows(db, supplierOrderIds);
  return rows.map((so) => {
    const own = lines.filter((l) => Number(l.supplier_order_id) === Number(so.id));
    return {
      supplierOrderNumber: so.supplier_order_number,
      supplierId: so.supplier_bp_number,
      supplierName: so.supplier_name,
      supplierOrderStatusId: so.status_id,
      orderPlaced: iso(so.placed_at)!,
      supplierCustomerId: so.supplier_customer_number,
      externalOrderId: so.external_order_id,
      orderedTotal: Number(so.net_value),
      confirmedTotal: so.confirmed_total == null ? null : Number(so.confirmed_total),
      // What the order is worth now: the confirmed total once the supplier confirmed, the ordered one before.
      total: Number(so.current_net_value),
      deliveryCost: Number(so.delivery_cost),
      // The order document (PDF/EDIFACT) carries the supplier order number as its document number.
      documentId: so.supplier_order_number,
      contact: contactOf(so.customer_address),
      deliveryAddress: deliveryAddressOf(own.find((l) => l.delivery_address)?.delivery_address ?? null),
      attachments: documents
        .filter((d) => Number(d.supplier_order_id) === Number(so.id))
        .map((d) => ({ id: Number(d.id), fileName: d.file_name, size: d.size_bytes })),
      itemsConfirmation: itemsConfirmationOf(own as ConfirmableLineRow[]),
      sentAt: iso(so.sent_at),
      confirmedAt: iso(so.confirmed_at),
      // The same rule applyConfirmation() enforces for the portal (spec section 4).
      confirmableInPortal:
        so.status_id === SupplierOrderStatus.Sent && Number(so.in_com_protocol_id) === CommunicationProtocol.Email,
      orderReference: so.order_reference ?? null,
      orderNote: so.order_note ?? null,
      lines: own.map((l) => ({
        lineId: Number(l.id),
        lineNo: l.line_no,
        productInstanceId: l.product_instance_id,
        producerNumber: l.producer_number,
        manufacturerName: l.manufacturer_name,
        description: l.description,
        priceBasis: Number(l.price_basis),
        unitCode: l.unit_code,
        priceOnRequest: l.price_on_request,
        ...currentLineValues(l as ConfirmableLineRow & LineValueColumns),
        ordered: orderedLineValues(l as ConfirmableLineRow & LineValueColumns),
        projectCode: l.project_code,
        comment: l.comment,
        deliveryAddress: l.delivery_address,
        images: l.image_url ? [l.image_url] : [],
        attachments: files
          .filter((f) => Number(f.order_line_id) === Number(l.id))
          .map((f) => ({ id: Number(f.id), fileName: f.file_name, size: f.size_bytes })),
        confirmation: lineConfirmationOf(l as ConfirmableLineRow),
      })),
    };
  });
}
