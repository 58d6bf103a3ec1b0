import {
  FeatureSettingKey,
  earliestDeliveryDate,
  minQuantityError,
  round2,
  ProductOrderableStatus,
  ProblemType,
  cartMessages,
  type CartItem,
  type MultiCart,
} from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import type { Queryable } from '../../db/queryable.ts';
import { inTransaction } from '../../db/pool.ts';
import { HttpProblem, notFound, validationProblem } from '../../http/problem.ts';
import { readNumberSetting } from '../settings/index.ts';
import {
  attachmentsOf,
  cartItems,
  findCart,
  linesOfCarts,
  overviewRows,
  repairDefault,
  resetCart,
  storeTotals,
  supplierSettings,
  type CartItemRow,
  type OverviewRow,
  type CartRow,
} from './carts.repo.ts';
import * as repo from './carts.repo.ts';
import { deliveryCostFor } from './delivery-cost.ts';
import { lineTotal, type OfferCatalog, type OfferPricing } from './offer-catalog.ts';

export function checkDeliveryDate(date: string | null | undefined, field: string) {
  if (!date) return;
  const valid =
    !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
  if (!valid || date < earliestDeliveryDate())
    throw validationProblem([{ field, message: cartMessages.deliveryDateTooEarly }]);
}

export const nameTaken = () =>
  new HttpProblem(400, cartMessages.cartNameExists, {
    type: ProblemType.entityAlreadyExists,
    errors: [{ field: 'body.name', message: cartMessages.cartNameExists }],
  });

export type { CartItemRow, CartRow };

type OfferMap = Map<string, OfferPricing>;

/**
 * What counts towards a cart's value: orderable lines only, summed per supplier to the cent. The cart view
 * and the cart overview both use this.
 */
export function orderableGroups(
  items: { product_instance_id: string; supplier_bp_number: string; quantity: number }[],
  offers: OfferMap,
) {
  const groups = new Map<string, { itemCount: number; totalValue: number }>();
  for (const item of items) {
    const offer = offers.get(item.product_instance_id);
    if (offer?.orderableStatus !== ProductOrderableStatus.Orderable) continue;
    const group = groups.get(item.supplier_bp_number) ?? { itemCount: 0, totalValue: 0 };
    group.itemCount += 1;
    group.totalValue = round2(group.totalValue + (lineTotal(offer, Number(item.quantity)) ?? 0));
    groups.set(item.supplier_bp_number, group);
  }
  return groups;
}

export class CartsService {
  /**
   * @param totalsStamp the price strategy's cache stamp (`PriceStrategy.cacheStamp`) when the overview may keep each
   *   cart's totals (only with offers from the portal's catalogue, whose changes bump the catalogue version)
   */
  constructor(
    private readonly db: Db,
    private readonly offers: OfferCatalog,
    private readonly totalsStamp?: (buyerBpNumber: string) => string | null,
  ) {}

  async maxCartCount() {
    return readNumberSetting(this.db, FeatureSettingKey.MaxCartCount);
  }
  async maxAttachmentCount() {
    return readNumberSetting(this.db, FeatureSettingKey.AttachmentsMaxFilesCount);
  }

  /**
   * The overview: one statement for the carts with their stored totals (`cart_totals`) and the stamp those must match
   * (content version, catalogue version, price day, the strategy's stamp). Only stale carts are priced again – their
   * lines in one statement, the prices of all their offers in one more (`findPricing`), totals by the cart view's
   * rule (`orderableGroups`) – and stored for the next call. Without a strategy stamp every cart is priced each call.
   */
  async list(bpNumber: string, punchoutContextId: string | null = null) {
    const strategyStamp = this.totalsStamp?.(bpNumber) ?? null;
    const rows = await overviewRows(this.db.$client, bpNumber, punchoutContextId);
    const stampOf = (r: OverviewRow) =>
      strategyStamp == null || r.content_version == null
        ? null
        : `${r.content_version}:${r.catalogue_version}:${r.price_day}:${strategyStamp}`;
    const totals = new Map<number, { itemCount: number; totalNetValue: number }>();
    const stale: OverviewRow[] = [];
    for (const r of rows) {
      const stamp = stampOf(r);
      if (stamp != null && r.stamp === stamp && r.item_count != null && r.total_net_value != null)
        totals.set(r.id, { itemCount: r.item_count, totalNetValue: Number(r.total_net_value) });
      else stale.push(r);
    }
    if (stale.length) {
      const lines = await linesOfCarts(
        this.db.$client,
        stale.map((r) => r.id),
      );
      const ids = [...new Set([...lines.values()].flat().map((i) => i.product_instance_id))];
      const offers = this.offers.findPricing
        ? await this.offers.findPricing(bpNumber, ids)
        : await this.offers.findOffers(bpNumber, ids);
      const computed: { cartId: number; stamp: string; itemCount: number; totalNetValue: number }[] = [];
      for (const r of stale) {
        const groups = [...orderableGroups(lines.get(r.id) ?? [], offers).values()];
        const value = {
          itemCount: groups.reduce((n, g) => n + g.itemCount, 0),
          totalNetValue: round2(groups.reduce((s, g) => s + g.totalValue, 0)),
        };
        totals.set(r.id, value);
        const stamp = stampOf(r);
        if (stamp != null) computed.push({ cartId: r.id, stamp, ...value });
      }
      await storeTotals(this.db.$client, computed);
    }
    return rows.map((cart) => ({
      id: cart.id,
      name: cart.name,
      dateCreated: new Date(cart.created_at).toISOString(),
      ...totals.get(cart.id)!,
      isDefault: cart.is_default,
    }));
  }

  /** Delivery cost per supplier for order values (404 for an unknown supplier). */
  async deliveryCosts(values: { supplierBusinessPartnerNo: string; orderValue: number }[]) {
    const settings = await supplierSettings(
      this.db.$client,
      values.map((v) => v.supplierBusinessPartnerNo),
    );
    return values.map((v) => {
      const s = settings.get(v.supplierBusinessPartnerNo);
      if (!s) throw notFound(`Lieferant ${v.supplierBusinessPartnerNo} nicht gefunden`);
      return { supplierBusinessPartnerNo: v.supplierBusinessPartnerNo, ...deliveryCostFor(v.orderValue, s) };
    });
  }

  /** Removes every item and the cart's project, address and date. */
  async clear(bpNumber: string, cartId: number) {
    if (!(await findCart(this.db.$client, bpNumber, cartId))) throw notFound(cartMessages.cartNotFound);
    await resetCart(this.db.$client, cartId);
  }

  /** For a checkout inside its transaction: the partner's cart locked against concurrent changes, with its items (null → 404). */
  async lockForCheckout(c: Queryable, bpNumber: string, cartId: number) {
    const cart = await findCart(c, bpNumber, cartId, true);
    // A punchout session's cart goes back to the procurement system, never through the portal's checkout.
    return cart && !cart.punchout_context_id ? { cart, items: await cartItems(c, cart.id) } : null;
  }

  /** The offers in a cart of the partner (unlocked: what a checkout prices before it locks the cart). */
  offerIdsOf(bpNumber: string, cartId: number): Promise<string[]> {
    return repo.offerIdsOfCart(this.db.$client, bpNumber, cartId);
  }

  /** After a checkout: removes the ordered items, clears project, address and date, and remembers the order. */
  async resetAfterCheckout(c: Queryable, cartId: number, orderNumber: string, orderedItemIds: number[]) {
    await resetCart(c, cartId, { orderNumber, itemIds: orderedItemIds });
  }

  async create(bpNumber: string, userId: string, name: string): Promise<MultiCart> {
    const max = await this.maxCartCount();
    const cartId = await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      // Serialise cart creation per partner so the maximum holds under concurrent requests.
      const count = await repo.lockAndCountCarts(c, bpNumber);
      if (count >= max) {
        throw new HttpProblem(400, cartMessages.maxCartsReached(max), {
          type: ProblemType.valueNotInRange,
          errors: [{ field: 'body.name', message: cartMessages.maxCartsReached(max) }],
        });
      }
      const id = await repo.insertCart(c, bpNumber, name, count === 0, userId);
      if (id === null) throw nameTaken();
      return id;
    });
    // The view reads offers and settings through the pool: built after the commit, so the transaction (and the
    // partner's lock) never waits for a second connection.
    return this.get(bpNumber, cartId);
  }

  /**
   * The partner's default cart, created ('Warenkorb') when the partner has none yet. For a punchout session
   * (`sessionContextId` of a session that has its own cart) that session's cart instead.
   */
  async defaultCart(bpNumber: string, userId: string, sessionContextId: string | null = null): Promise<CartRow> {
    const own = sessionContextId ? await repo.sessionCartOf(this.db.$client, sessionContextId) : null;
    if (own) return (await findCart(this.db.$client, bpNumber, own.id))!;
    await repo.insertFirstCart(this.db.$client, bpNumber, userId);
    await repairDefault(this.db.$client, bpNumber);
    return (await findCart(this.db.$client, bpNumber, await repo.defaultCartId(this.db.$client, bpNumber)))!;
  }

  /** The id of a punchout session's own cart; null for an IDS session without one. */
  async sessionCartId(contextId: string): Promise<number | null> {
    return (await this.sessionCart(contextId))?.id ?? null;
  }

  /** A punchout session's own cart (id, and whether it may only be looked at); null for an IDS session without one. */
  async sessionCart(contextId: string): Promise<{ id: number; readOnly: boolean } | null> {
    const row = await repo.sessionCartOf(this.db.$client, contextId);
    return row ? { id: row.id, readOnly: row.read_only } : null;
  }

  /** Creates a punchout session's own cart inside the session's transaction; returns its id. */
  createSessionCart(c: Queryable, s: { bpNumber: string; userId: string; contextId: string; readOnly: boolean }) {
    return repo.insertSessionCart(c, s);
  }

  async get(bpNumber: string, cartId: number): Promise<MultiCart> {
    const cart = await findCart(this.db.$client, bpNumber, cartId);
    if (!cart) throw notFound(cartMessages.cartNotFound);
    return this.view(this.db.$client, bpNumber, cart);
  }

  async rename(bpNumber: string, cartId: number, name: string) {
    const cart = await findCart(this.db.$client, bpNumber, cartId);
    // A punchout session's cart keeps its name and lives as long as its session (never in the normal cart list).
    if (!cart || cart.punchout_context_id) throw notFound(cartMessages.cartNotFound);
    try {
      await repo.renameCart(this.db.$client, bpNumber, cartId, name);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw nameTaken();
      throw error;
    }
    return this.get(bpNumber, cartId);
  }

  async updateDetails(
    bpNumber: string,
    cartId: number,
    body: { projectId?: number | null; deliveryAddressId?: number | null; deliveryDate?: string | null },
  ) {
    const cart = await findCart(this.db.$client, bpNumber, cartId);
    if (!cart) throw notFound(cartMessages.cartNotFound);
    await this.checkReferences(this.db.$client, bpNumber, body);
    checkDeliveryDate(body.deliveryDate, 'body.deliveryDate');
    await repo.setCartDetails(this.db.$client, bpNumber, cartId, {
      projectId: body.projectId ?? null,
      deliveryAddressId: body.deliveryAddressId ?? null,
      deliveryDate: body.deliveryDate || null,
    });
    return this.get(bpNumber, cartId);
  }

  async remove(bpNumber: string, cartId: number) {
    await inTransaction(this.db, async (tx) => {
      const cart = await findCart(tx.$client, bpNumber, cartId, true);
      if (!cart || cart.punchout_context_id) throw notFound(cartMessages.cartNotFound);
      await repo.deleteCart(tx.$client, cartId);
      await repairDefault(tx.$client, bpNumber);
    });
  }

  /** Projects and addresses must belong to the same partner; a foreign id is reported as not found. */
  async checkReferences(
    c: Queryable,
    bpNumber: string,
    body: { projectId?: number | null; deliveryAddressId?: number | null },
  ) {
    if (body.projectId != null) {
      if (!(await repo.partnerHasProject(c, bpNumber, body.projectId)))
        throw validationProblem([{ field: 'body.projectId', message: 'Projekt nicht gefunden' }]);
    }
    if (body.deliveryAddressId != null) {
      if (!(await repo.partnerHasAddress(c, bpNumber, body.deliveryAddressId)))
        throw validationProblem([{ field: 'body.deliveryAddressId', message: 'Adresse nicht gefunden' }]);
    }
  }

  /** Minimum order quantity rule with the spec's message. */
  static checkQuantity(quantity: number, minOrderQuantity: number) {
    const error = minQuantityError(quantity, minOrderQuantity);
    if (error) throw validationProblem([{ field: 'body.quantity', message: error }], error);
  }

  /** The cart as the front end shows it: items with offers, supplier groups, delivery costs and totals. */
  async view(c: Queryable, bpNumber: string, cart: CartRow): Promise<MultiCart> {
    const items = await cartItems(c, cart.id);
    const offers = await this.offers.findOffers(bpNumber, [...new Set(items.map((i) => i.product_instance_id))]);
    const attachments = await attachmentsOf(
      c,
      items.map((i) => i.id),
    );
    const maxAttachments = await this.maxAttachmentCount();
    const suppliers = await supplierSettings(c, [...new Set(items.map((i) => i.supplier_bp_number))]);
    const views: CartItem[] = [];
    const unavailable: number[] = [];
    const supplierNames = new Map<string, string>();
    for (const item of items) {
      const offer = offers.get(item.product_instance_id);
      const status = offer?.orderableStatus ?? ProductOrderableStatus.NotOrderable;
      const netValue = offer ? lineTotal(offer, Number(item.quantity)) : null;
      const supplierName =
        offer?.supplierName ?? suppliers.get(item.supplier_bp_number)?.name ?? item.supplier_bp_number;
      const files = attachments.get(item.id) ?? [];
      views.push({
        id: item.id,
        articleNumber: item.article_number,
        supplierBusinessPartnerNo: item.supplier_bp_number,
        productInstanceId: item.product_instance_id,
        quantity: Number(item.quantity),
        projectId: item.project_id,
        comment: item.comment,
        deliveryDate: item.delivery_date,
        deliveryAddressId: item.delivery_address_id,
        imageUrl: offer?.imageUrl ?? null,
        attachments: files,
        canUploadAttachment: files.length < maxAttachments || maxAttachments === 1,
        supplierName,
        netValue,
        supplier: {
          name: supplierName,
          bpNumber: item.supplier_bp_number,
          requiredOnboardingForm: offer?.requiredOnboardingForm ?? false,
          hideAdditionalInfo: offer?.hideAdditionalInfo ?? false,
        },
        productName: offer?.productName ?? null,
        manufacturerPid: offer?.manufacturerPid ?? null,
        manufacturerId: offer?.manufacturerId ?? null,
        brandName: offer?.brandName ?? null,
        unitPrice: offer?.unitPrice ?? null,
        priceBasis: offer?.priceBasis ?? 1,
        minOrderQuantity: offer?.minOrderQuantity ?? 1,
        unit: offer?.unit ?? null,
        productOrderableStatus: status,
      });
      if (status !== ProductOrderableStatus.Orderable) unavailable.push(item.id);
      else if (!supplierNames.has(item.supplier_bp_number)) supplierNames.set(item.supplier_bp_number, supplierName);
    }
    const supplierGroups = [...orderableGroups(items, offers)].map(([bp, g]) => ({
      supplierBusinessPartnerNo: bp,
      supplierName: supplierNames.get(bp) ?? bp,
      ...g,
      ...deliveryCostFor(g.totalValue, suppliers.get(bp) ?? { deliveryCost: 0, freeDeliveryThreshold: 0 }),
    }));
    return {
      id: cart.id,
      name: cart.name,
      isDefault: cart.is_default,
      projectId: cart.project_id && Number(cart.project_id),
      deliveryAddressId: cart.delivery_address_id && Number(cart.delivery_address_id),
      deliveryDate: cart.delivery_date,
      dateCreated: new Date(cart.created_at).toISOString(),
      items: views,
      supplierOrderValues: supplierGroups.map((g) => ({
        supplierBusinessPartnerNo: g.supplierBusinessPartnerNo,
        orderValue: g.totalValue,
      })),
      supplierGroups,
      unavailableItemIds: unavailable,
      totalNetValue: round2(supplierGroups.reduce((s, g) => s + g.totalValue, 0)),
      totalDeliveryCost: round2(supplierGroups.reduce((s, g) => s + g.deliveryCost, 0)),
    };
  }
}
