import { ProductOrderableStatus, cartMessages } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import { CartItemsService, CartsService, type OfferCatalog } from '../carts/index.ts';
import { customerOrderExists, reorderLines, type ReorderLineRow } from './orders.repo.ts';
import type { FileStorage } from '../storage/index.ts';

interface ReorderLine {
  articleNumber: string;
  name: string;
  supplierName: string;
  quantity: number;
}

const lineOf = (row: ReorderLineRow): ReorderLine => ({
  articleNumber: row.article_number,
  name: row.name,
  supplierName: row.supplier_name,
  quantity: Number(row.quantity),
});

/**
 * 'Erneut bestellen': an old order's lines go into a cart the buyer chooses (one of the partner's carts or a new
 * one), each line through the cart's own add rule (orderability, minimum quantity), so nothing enters a cart that
 * could not be added by hand. Lines that are no longer orderable are listed with the reason and left out.
 */
export class ReorderService {
  private readonly carts: CartsService;
  private readonly items: CartItemsService;

  constructor(
    private readonly db: Db,
    private readonly offers: OfferCatalog,
    storage: FileStorage,
  ) {
    this.carts = new CartsService(db, offers);
    this.items = new CartItemsService(db, offers, storage);
  }

  async reorder(
    caller: Caller,
    bpNumber: string,
    orderNumber: string,
    target: { cartId?: number; newCartName?: string },
  ) {
    if (!(await customerOrderExists(this.db, orderNumber, bpNumber))) throw notFound('Bestellung nicht gefunden');
    const rows = await reorderLines(this.db, orderNumber, bpNumber);
    const offers = await this.offers.findOffers(bpNumber, [...new Set(rows.map((r) => r.product_instance_id))]);
    const orderable = rows.filter(
      (r) => offers.get(r.product_instance_id)?.orderableStatus === ProductOrderableStatus.Orderable,
    );
    const unavailable = rows
      .filter((r) => !orderable.includes(r))
      .map((r) => ({
        ...lineOf(r),
        reason: cartMessages.reorderReasons[offers.get(r.product_instance_id)?.orderableStatus ?? 0],
      }));
    const chosen = target.cartId ? await this.carts.get(bpNumber, target.cartId) : null;
    // A new cart is made only now: it is not left behind empty when nothing is orderable.
    if (!orderable.length) return { cartId: null, cartName: null, added: [], unavailable };
    const cart = chosen ?? (await this.carts.create(bpNumber, caller.userId, target.newCartName!));
    const added: ReorderLine[] = [];
    for (const row of orderable) {
      try {
        await this.items.add(bpNumber, caller.userId, {
          cartId: cart.id,
          productInstanceId: row.product_instance_id,
          quantity: Number(row.quantity),
          comment: row.comment,
        });
        added.push(lineOf(row));
      } catch (error) {
        // A quantity the offer no longer allows (its minimum or basis changed): listed, the other lines go in.
        if (!(error instanceof HttpProblem) || error.status !== 400) throw error;
        unavailable.push({ ...lineOf(row), reason: cartMessages.reorderQuantityRefused });
      }
    }
    return { cartId: cart.id, cartName: cart.name, added, unavailable };
  }
}
