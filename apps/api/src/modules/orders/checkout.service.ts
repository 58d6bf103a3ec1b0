import { ProductOrderableStatus, businessToday, cartMessages, orderPlacedMail, round2 } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { AppDeps } from '../../http/types.ts';
import { inTransaction, type TxDb } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import {
  CartsService,
  type CartItemRow,
  deliveryCostFor,
  lineTotal,
  type OfferCatalog,
  type OfferSnapshot,
} from '../carts/index.ts';
import { wantsMail, type BusinessPartnerRow } from '../profile/index.ts';
import * as repo from './checkout.repo.ts';

/** A repeated checkout of an emptied cart within this window returns the order it already created. */
const REPEAT_WINDOW_MS = 10 * 60 * 1000;
/** Rounds of "read the offers, then lock the cart" before the last round reads them inside the transaction. */
const MAX_ATTEMPTS = 3;

type Line = { item: CartItemRow; offer: OfferSnapshot; total: number | null };

/** The buyer's reference and note for the whole order (null: none given). */
export interface OrderTexts {
  orderReference: string | null;
  orderNote: string | null;
}

/**
 * Checkout as explicit steps inside one transaction: lock the cart → read and check the lines →
 * create the customer order → one supplier order per supplier with line snapshots and attachments →
 * empty the cart and remember the order. The transmission requests are written in the same transaction
 * (outbox), so a crash right after the commit cannot leave an order that is never sent.
 */
export class CheckoutService {
  constructor(
    private readonly deps: AppDeps,
    private readonly offers: OfferCatalog,
    private readonly carts: CartsService,
  ) {}

  async checkout(
    caller: Caller,
    bpNumber: string,
    cartId: number,
    texts: OrderTexts = { orderReference: null, orderNote: null },
  ): Promise<{ customerOrderNumber: string }> {
    // The offers are read (through the pool) before the transaction takes its connection: read inside it, every
    // checkout held one connection while it waited for more, and as many concurrent checkouts as the pool has
    // connections waited for each other until the pool's timeout (bench:load: 30 s, then 503). A line added between
    // this read and the lock is priced by another round.
    // The buyer's mail setting is read beside the cart's offers, before the transaction (one round trip less in it).
    let mailWanted: Promise<boolean> | undefined;
    for (let attempt = 1; ; attempt++) {
      mailWanted ??= wantsMail(this.deps.db.$client, caller.userId, 'orderPlaced');
      const [ids, wanted] = await Promise.all([this.carts.offerIdsOf(bpNumber, cartId), mailWanted]);
      const offers = ids.length ? await this.offers.findOffers(bpNumber, ids) : new Map<string, OfferSnapshot>();
      const result = await inTransaction(this.deps.db, (tx) =>
        this.checkoutLocked(tx, caller, bpNumber, cartId, texts, offers, attempt < MAX_ATTEMPTS, wanted),
      );
      if (result) return { customerOrderNumber: result.customerOrderNumber };
    }
  }

  /** The checkout in its transaction; null when the cart holds an offer not read before (with `retry`). */
  private async checkoutLocked(
    tx: TxDb,
    caller: Caller,
    bpNumber: string,
    cartId: number,
    texts: OrderTexts,
    preread: Map<string, OfferSnapshot>,
    retry: boolean,
    mailWanted: boolean,
  ): Promise<{ customerOrderNumber: string } | null> {
    const locked = await this.carts.lockForCheckout(tx.$client, bpNumber, cartId);
    if (!locked) throw notFound(cartMessages.cartNotFound);
    const { cart } = locked;
    // Cart-level project, address and date apply to every line that has none of its own.
    const items = locked.items.map((i) => ({
      ...i,
      project_id: i.project_id ?? (cart.project_id != null ? Number(cart.project_id) : null),
      delivery_address_id:
        i.delivery_address_id ?? (cart.delivery_address_id != null ? Number(cart.delivery_address_id) : null),
      delivery_date: i.delivery_date ?? cart.delivery_date,
    }));
    if (!items.length) {
      const recent =
        cart.last_order_number &&
        cart.last_checkout_at &&
        Date.now() - new Date(cart.last_checkout_at).getTime() < REPEAT_WINDOW_MS;
      if (recent) return { customerOrderNumber: cart.last_order_number! };
      throw new HttpProblem(400, cartMessages.emptyCart);
    }
    const unread = items.some((i) => !preread.has(i.product_instance_id));
    if (unread && retry) return null;
    // The last round reads what is missing here, as before (a cart changing under every round).
    const offers = unread
      ? await this.offers.findOffers(
          bpNumber,
          items.map((i) => i.product_instance_id),
        )
      : preread;
    const lines = this.readLines(items, offers);
    // The partner, its customer numbers at the lines' suppliers and their delivery settings in one round trip.
    const ordering = await repo.partnerWithCustomerNumbers(tx.$client, bpNumber, [
      ...new Set(lines.map((l) => l.offer.supplierBpNumber)),
    ]);
    // The cart is the partner's (found by bp_number above, foreign key): the partner exists.
    if (!ordering) throw new Error(`business partner ${bpNumber} not found`);
    const totals = totalsBySupplier(lines, ordering.supplierSettings);
    const customerOrder = await this.customerOrderRecord(tx, caller, bpNumber, cart, totals, ordering.partner, texts);
    const order = await this.createOrders(tx, customerOrder, lines, totals, ordering.customerNumbers);
    // The transmission requests (outbox) were written with the supplier orders.
    const supplierOrders = order.supplierOrders;
    await this.carts.resetAfterCheckout(
      tx.$client,
      cart.id,
      order.number,
      lines.map((l) => l.item.id),
    );
    if (mailWanted) await this.enqueueOrderPlacedMail(tx, caller, order.number, lines, totals, supplierOrders);
    return { customerOrderNumber: order.number };
  }

  /**
   * The buyer's mail about the placed order (number, per supplier its lines and totals), written to the outbox with
   * its delivery job in the checkout's transaction (only when the buyer has not turned it off on 'Mein Profil').
   */
  private async enqueueOrderPlacedMail(
    tx: TxDb,
    caller: Caller,
    customerOrderNumber: string,
    lines: Line[],
    totals: Map<string, { net: number; deliveryCost: number }>,
    supplierOrders: { id: number; supplierBpNumber: string; number: string }[],
  ): Promise<number> {
    const placed = supplierOrders.map((so) => {
      const own = lines.filter((l) => l.offer.supplierBpNumber === so.supplierBpNumber);
      return {
        supplierName: own[0].offer.supplierName,
        supplierOrderNumber: so.number,
        net: totals.get(so.supplierBpNumber)!.net,
        deliveryCost: totals.get(so.supplierBpNumber)!.deliveryCost,
        lines: own.map((l, index) => ({
          lineNo: index + 1,
          articleNumber: l.offer.articleNumber,
          name: l.offer.productName,
          quantity: Number(l.item.quantity),
          unit: l.offer.unit,
          lineTotal: l.total,
        })),
      };
    });
    const mail = orderPlacedMail({
      customerOrderNumber,
      supplierOrders: placed,
      net: round2(placed.reduce((sum, so) => sum + so.net, 0)),
      deliveryCost: round2(placed.reduce((sum, so) => sum + so.deliveryCost, 0)),
      url: `${this.deps.config.publicUrl}/bestellungen/bestellung?id=${encodeURIComponent(customerOrderNumber)}&orderType=customer`,
    });
    // The mail and its delivery job in the checkout's transaction (nothing to hand over after the commit).
    return this.deps.mail.enqueueInTransaction({ to: caller.email, ...mail }, tx.$client);
  }

  /** Only orderable lines are ordered; unavailable ones stay in the cart (they are hidden there). */
  private readLines(items: CartItemRow[], offers: Map<string, OfferSnapshot>): Line[] {
    const lines: Line[] = [];
    for (const item of items) {
      const offer = offers.get(item.product_instance_id);
      if (!offer || offer.orderableStatus !== ProductOrderableStatus.Orderable) continue;
      CartsService.checkQuantity(Number(item.quantity), offer.minOrderQuantity);
      lines.push({ item, offer, total: lineTotal(offer, Number(item.quantity)) });
    }
    if (!lines.length) throw new HttpProblem(400, cartMessages.emptyCart, { detail: 'Keine bestellbaren Positionen' });
    return lines;
  }

  /** The customer order's record: totals, the ordering partner's address and where the goods go. */
  private async customerOrderRecord(
    tx: TxDb,
    caller: Caller,
    bpNumber: string,
    cart: { id: number; name: string; delivery_address_id: number | null },
    totals: Map<string, { net: number; deliveryCost: number }>,
    partner: BusinessPartnerRow,
    texts: OrderTexts,
  ): Promise<repo.CustomerOrderRecord> {
    const c = tx.$client;
    const address = cart.delivery_address_id ? await repo.findAddressRow(c, cart.delivery_address_id) : null;
    const totalNet = round2([...totals.values()].reduce((s, t) => s + t.net, 0));
    const totalDelivery = round2([...totals.values()].reduce((s, t) => s + t.deliveryCost, 0));
    const year = Number(businessToday().slice(0, 4));
    return {
      year,
      bpNumber,
      userId: caller.userId,
      cartId: cart.id,
      cartName: cart.name,
      totalNet,
      totalDelivery,
      ...texts,
      dispatchTo: address
        ? `${address.company_name}, ${address.postal_code} ${address.city}`
        : `${partner.official_company_name ?? partner.name}, ${partner.postal_code} ${partner.city}`,
      customerAddress: {
        name: partner.official_company_name ?? partner.name,
        street: partner.street,
        houseNumber: partner.house_number,
        postalCode: partner.postal_code,
        city: partner.city,
        country: partner.country,
        email: partner.email,
        phoneNumber: partner.phone_number,
        taxNumber: partner.tax_number,
        vatId: partner.vat_id,
      },
    };
  }

  /** The customer order, one supplier order per supplier and the lines' snapshots with their attachments. */
  private async createOrders(
    tx: TxDb,
    customerOrder: repo.CustomerOrderRecord,
    lines: Line[],
    totals: Map<string, { net: number; deliveryCost: number }>,
    customerNumbers: Map<string, string | null>,
  ) {
    const c = tx.$client;
    const projectIds = [...new Set(lines.map((l) => l.item.project_id).filter((p): p is number => p != null))];
    const addressIds = [...new Set(lines.map((l) => l.item.delivery_address_id).filter((p): p is number => p != null))];
    const projects = new Map((await repo.projectRows(c, projectIds)).map((p) => [Number(p.id), p]));
    const addresses = new Map((await repo.addressRows(c, addressIds)).map((a) => [Number(a.id), a]));
    const lineRecords: repo.OrderLineRecord[] = [];
    // The customer order and all supplier orders in one statement.
    const suppliersInOrder = [...totals.keys()];
    const order = await repo.insertCustomerAndSupplierOrders(c, customerOrder, {
      suppliers: suppliersInOrder,
      customerNumbers: suppliersInOrder.map((bp) => customerNumbers.get(bp) ?? null),
      nets: suppliersInOrder.map((bp) => totals.get(bp)!.net),
      deliveryCosts: suppliersInOrder.map((bp) => totals.get(bp)!.deliveryCost),
    });
    const bySupplier = new Map(order.supplierOrders.map((so) => [so.supplierBpNumber, so]));
    const supplierOrders = suppliersInOrder.map((bp) => bySupplier.get(bp)!);
    const idBySupplier = new Map(supplierOrders.map((so) => [so.supplierBpNumber, so.id]));
    for (const supplierBp of suppliersInOrder) {
      const supplierOrderId = idBySupplier.get(supplierBp)!;
      lines
        .filter((l) => l.offer.supplierBpNumber === supplierBp)
        .forEach(({ item, offer, total: lineValue }, index) => {
          const project = item.project_id != null ? projects.get(item.project_id) : null;
          const address = item.delivery_address_id != null ? addresses.get(item.delivery_address_id) : null;
          lineRecords.push({
            supplier_order_id: supplierOrderId,
            line_no: index + 1,
            cart_item_id: item.id,
            product_instance_id: offer.productInstanceId,
            article_number: offer.articleNumber,
            producer_number: offer.manufacturerPid,
            manufacturer_name: offer.manufacturerName ?? offer.brandName,
            name: offer.productName,
            description: offer.description,
            unit_price: offer.unitPrice,
            price_basis: offer.priceBasis,
            min_quantity: offer.minOrderQuantity,
            quantity: Number(item.quantity),
            quantity_price: lineValue,
            unit_code: offer.unit,
            price_on_request: offer.priceOnRequest,
            delivery_date: item.delivery_date,
            project_code: project?.code ?? null,
            project_description: project?.description ?? null,
            comment: item.comment,
            delivery_address: address
              ? {
                  name: address.company_name,
                  contactPerson: address.contact_person,
                  additionalInfo: address.additional_info,
                  street: address.street_name,
                  houseNumber: address.house_number,
                  postalCode: address.postal_code,
                  city: address.city,
                  countryCode: address.country_code,
                  phoneNumber: address.phone_number,
                }
              : null,
            image_url: offer.imageUrl,
          });
        });
    }
    // All line snapshots and their attachments in one statement.
    await repo.insertOrderLinesWithAttachments(c, lineRecords);
    return { id: order.id, number: order.number, supplierOrders };
  }
}

/** Net value and delivery cost per supplier of the lines (a supplier without settings delivers free). */
function totalsBySupplier(lines: Line[], settings: Map<string, repo.SupplierDeliverySettings>) {
  const totals = new Map<string, { net: number; deliveryCost: number }>();
  for (const l of lines) {
    const t = totals.get(l.offer.supplierBpNumber) ?? { net: 0, deliveryCost: 0 };
    t.net = round2(t.net + (l.total ?? 0));
    totals.set(l.offer.supplierBpNumber, t);
  }
  for (const [bp, t] of totals)
    t.deliveryCost = deliveryCostFor(
      t.net,
      settings.get(bp) ?? { deliveryCost: 0, freeDeliveryThreshold: 0 },
    ).deliveryCost;
  return totals;
}
