/**
 * The search hits' store: the product fields and offers (with the price valid today) of the products a search page
 * shows, kept in the API process so that a page whose products were shown before needs no Postgres round trip.
 * What is kept is the same for every caller (no favourites, no relations, no caller's prices: those are applied per
 * request, offers.ts); a page's missing products are read in one statement and kept.
 *
 * Freshness across processes: it follows the read-model cache's notifications (migration 0215: every statement that
 * writes products, product_offers or catalogue_offer_prices notifies at its commit), drops everything when one of
 * these tables changed, and keeps nothing and answers nothing from memory while the listener is not connected. A read
 * is kept only when no such change arrived while it ran, and only for the Berlin day it was read on (the price valid
 * today). The search index's change feed is not used for this: it is applied up to the oldest transaction still
 * running (feedHorizon), so during a long import a price committed by another transaction would be shown late – the
 * notification is delivered at the commit. After this process answered a write, the next read waits until its
 * notifications arrived (ReadModelCache.settled()).
 *
 * Bounded: at most `maxProducts` products (least recently shown dropped first); bytes per product in
 * docs/performance.md.
 */
import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import type { ReadModelCache, ReadModelTable } from '../../../http/read-model-cache.ts';
import { hitRowsOfProducts, type HitProductRow, type OfferRow } from '../catalogue.repo.ts';

/** The tables a kept hit is read from. */
const HIT_TABLES: ReadonlySet<ReadModelTable> = new Set(['products', 'product_offers', 'catalogue_offer_prices']);

/** Products kept by default: about 1.2 KB each as JS objects, so ≈ 120 MB at most. */
export const HIT_STORE_MAX_PRODUCTS = 100_000;

interface StoredHit {
  /** null: the product has no offer (it is no hit). */
  product: HitProductRow | null;
  offers: OfferRow[];
}

export interface HitRows {
  products: HitProductRow[];
  offers: OfferRow[];
}

export class HitStore {
  private readonly entries: LRUCache<number, StoredHit>;
  /** Rises with every change of a followed table (and a lost listener): reads begun before it are not kept. */
  private generation = 0;
  /** The Berlin day of the kept entries. */
  private day = '';
  /** Products answered from memory and read from Postgres (tests, bench). */
  found = 0;
  read = 0;

  constructor(
    private readonly readModels: ReadModelCache,
    maxProducts = HIT_STORE_MAX_PRODUCTS,
  ) {
    this.entries = new LRUCache({ max: maxProducts });
    readModels.follow((table) => {
      if (table !== null && !HIT_TABLES.has(table)) return;
      this.generation++;
      this.entries.clear();
    });
  }

  /** Products kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The hit columns and offers (price valid today, no favourites) of the products `ids` that have offers. */
  async rowsOf(pool: pg.Pool, ids: number[]): Promise<HitRows> {
    const usable = await this.readModels.settled();
    const day = usable ? this.readModels.keepingDay() : null;
    if (day === null) return readRows(pool, ids);
    if (day !== this.day) {
      this.entries.clear();
      this.day = day;
    }
    const ticket = this.generation;
    const kept = new Map<number, StoredHit>();
    const missing: number[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry) kept.set(id, entry);
      else missing.push(id);
    }
    this.found += kept.size;
    this.read += missing.length;
    if (missing.length) {
      const fresh = await readRows(pool, missing);
      const byId = new Map<number, StoredHit>(missing.map((id) => [id, { product: null, offers: [] }]));
      for (const p of fresh.products) byId.get(p.id)!.product = p;
      for (const o of fresh.offers) byId.get(o.product_no)?.offers.push(o);
      const keep = this.unchangedSince(ticket, day);
      for (const [id, entry] of byId) {
        kept.set(id, entry);
        if (keep) this.entries.set(id, entry);
      }
    }
    const products: HitProductRow[] = [];
    const offers: OfferRow[] = [];
    for (const entry of kept.values()) {
      if (!entry.product) continue;
      products.push(entry.product);
      for (const o of entry.offers) offers.push(o);
    }
    return { products, offers };
  }

  /** Nothing the kept hits read changed since the ticket, the listener is still connected and the day is the same. */
  private unchangedSince(ticket: number, day: string): boolean {
    return ticket === this.generation && this.readModels.connected && this.readModels.keepingDay() === day;
  }
}

async function readRows(pool: pg.Pool, ids: number[]): Promise<HitRows> {
  // No partner: no favourites are read (the caller's come from offers.ts).
  const { products, offers } = await hitRowsOfProducts(pool, ids, '', null);
  return { products, offers };
}
