import { Role, isStaff } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';
import { notFound } from '../../http/problem.ts';
import { supplierOrderPdf } from '../transmission/index.ts';
import type { FileStorage } from '../storage/index.ts';
import {
  customerOrderDetails,
  listCustomerOrders,
  listSupplierOrders,
  orderLineAttachment,
  supplierOrderByNumber,
  supplierOrderIdOfCustomerOrder,
  type CustomerOrderFilter,
  type SupplierOrderFilter,
} from './orders.repo.ts';

const orderNotFound = () => notFound('Bestellung nicht gefunden');

/** Customer and supplier orders as buyers and staff read them; scoping and the 404 rule live here. */
export class OrdersService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
  ) {}

  customerOrders(filter: CustomerOrderFilter) {
    return listCustomerOrders(this.db, filter);
  }

  supplierOrders(filter: SupplierOrderFilter) {
    return listSupplierOrders(this.db, filter);
  }

  /** A customer order; `buyerBpNumber` limits it to that partner (staff pass none). Another partner's order is a 404. */
  async customerOrder(orderNumber: string, buyerBpNumber?: string) {
    const details = await customerOrderDetails(this.db, orderNumber, buyerBpNumber);
    if (!details) throw orderNotFound();
    return details;
  }

  async supplierOrder(orderNumber: string) {
    const details = await supplierOrderByNumber(this.db, orderNumber);
    if (!details) throw orderNotFound();
    return details;
  }

  /** The printable order of one supplier order of a customer order (the supplier's PDF); `buyerBpNumber` scopes it. */
  async supplierOrderPdf(ref: { customerOrderNumber: string; supplierOrderNumber: string }, buyerBpNumber?: string) {
    const id = await supplierOrderIdOfCustomerOrder(this.db, ref, buyerBpNumber);
    const pdf = id == null ? null : await supplierOrderPdf(this.db.$client, id);
    if (!pdf) throw orderNotFound();
    return pdf;
  }

  /** An order line's attachment: buyers see their partner's orders, sellers their supplier's, staff all. */
  async lineAttachment(
    caller: Caller,
    currentPartner: () => string,
    ref: { supplierOrderNumber: string; lineId: number; id: number },
  ) {
    const scope = isStaff(caller.role)
      ? 'all'
      : caller.role === Role.Seller
        ? { supplierBpNumber: currentPartner() }
        : { buyerBpNumber: currentPartner() };
    const attachment = await orderLineAttachment(this.db, ref, scope);
    if (!attachment) throw notFound('Anhang nicht gefunden');
    // Attachments from before the file storage keep their bytes in the row.
    const content = attachment.storage_key ? await this.storage.get(attachment.storage_key) : attachment.content;
    if (!content) throw notFound('Anhang nicht gefunden');
    return { fileName: attachment.file_name, contentType: attachment.content_type, content };
  }
}
