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
 * Bounded: at most HIT_STORE_MAX_PRODUCTS products and HIT_STORE_MAX_BYTES (least recently shown dropped first). It
 * fills from the pages shown; reading the best-ranked products ahead cost more in a process's first minute than it
 * saved (docs/performance.md). Bytes per product: docs/performance.md.
 */
import type pg from 'pg';
import { LRUCache } from 'lru-cache';
import type { ReadModelCache, ReadModelTable } from '../../../http/read-model-cache.ts';
import {
  HIT_OFFER_FIELDS,
  HIT_PRODUCT_FIELDS,
  hitTextsOfProducts,
  type HitProductRow,
  type OfferRow,
} from '../catalogue.repo.ts';

/** The tables a kept hit is read from. */
const HIT_TABLES: ReadonlySet<ReadModelTable> = new Set(['products', 'product_offers', 'catalogue_offer_prices']);

/** Products kept by default (each one JSON string of its product and offers, ≈ 1 KB, docs/performance.md). */
export const HIT_STORE_MAX_PRODUCTS = 100_000;
/** And at most this many bytes of them (a string's characters plus its header; umlauts are one byte in V8). */
export const HIT_STORE_MAX_BYTES = 160 * 1024 * 1024;

interface StoredHit {
  /** null: the product has no offer (it is no hit). */
  product: HitProductRow | null;
  offers: OfferRow[];
}

/**
 * A kept product: the JSON text Postgres built for it (`hitTextsOfProducts`: values only, in the order of
 * HIT_PRODUCT_FIELDS and HIT_OFFER_FIELDS), '' without offers. A few hundred thousand strings instead of millions of
 * small objects, which every full garbage collection would have to walk; the API does not parse rows to keep them.
 */
type KeptHit = string;
const NO_OFFERS: KeptHit = '';

function decode(kept: KeptHit): StoredHit {
  if (kept === NO_OFFERS) return { product: null, offers: [] };
  const [product, offers] = JSON.parse(kept) as [unknown[], unknown[][]];
  return {
    product: objectOf(HIT_PRODUCT_FIELDS, product) as unknown as HitProductRow,
    offers: offers.map((o) => objectOf(HIT_OFFER_FIELDS, o) as unknown as OfferRow),
  };
}

function objectOf(fields: readonly string[], values: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let k = 0; k < fields.length; k++) o[fields[k]] = values[k];
  return o;
}

const STRING_HEADER_BYTES = 24;

export interface HitRows {
  products: HitProductRow[];
  offers: OfferRow[];
}

export class HitStore {
  private readonly entries: LRUCache<number, KeptHit>;
  /** Rises with every change of a followed table (and a lost listener): reads begun before it are not kept. */
  private generation = 0;
  /** The Berlin day of the kept entries. */
  private day = '';
  /** Products answered from memory and read from Postgres per search (tests, bench). */
  found = 0;
  read = 0;

  constructor(
    private readonly readModels: ReadModelCache,
    private readonly sizes = { max: HIT_STORE_MAX_PRODUCTS },
  ) {
    this.entries = new LRUCache({
      max: sizes.max,
      maxSize: HIT_STORE_MAX_BYTES,
      sizeCalculation: (kept) => kept.length + STRING_HEADER_BYTES,
    });
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

  /** Bytes of the kept products (their strings). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  close(): void {
    this.entries.clear();
  }

  /** The hit columns and offers (price valid today, no favourites) of the products `ids` that have offers. */
  async rowsOf(pool: pg.Pool, ids: number[]): Promise<HitRows> {
    const day = await this.usableDay();
    if (day === null) return rowsOfHits([...(await readTexts(pool, ids)).values()].map(decode));
    const ticket = this.generation;
    const kept = new Map<number, StoredHit>();
    const missing: number[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry !== undefined) kept.set(id, decode(entry));
      else missing.push(id);
    }
    this.found += kept.size;
    this.read += missing.length;
    if (missing.length) for (const [id, entry] of await this.fill(pool, missing, ticket, day)) kept.set(id, entry);
    return rowsOfHits(ids.flatMap((id) => kept.get(id) ?? []));
  }

  /**
   * The Berlin day whose entries may be used and kept now; null while the listener is not connected or the day is just
   * starting (then everything is read from Postgres). A new day drops the entries (the prices valid today changed).
   */
  private async usableDay(): Promise<string | null> {
    if (!(await this.readModels.settled())) return null;
    const day = this.readModels.keepingDay();
    if (day !== null && day !== this.day) {
      this.entries.clear();
      this.day = day;
    }
    return day;
  }

  /** Reads the products `ids` and keeps them when nothing they read changed since `ticket` was taken. */
  private async fill(pool: pg.Pool, ids: number[], ticket: number, day: string): Promise<Map<number, StoredHit>> {
    const texts = await readTexts(pool, ids);
    const keep = this.unchangedSince(ticket, day);
    const byId = new Map<number, StoredHit>();
    for (const [id, text] of texts) {
      if (keep) this.entries.set(id, text);
      byId.set(id, decode(text));
    }
    return byId;
  }

  /** Nothing the kept hits read changed since the ticket, the listener is still connected and the day is the same. */
  private unchangedSince(ticket: number, day: string): boolean {
    return ticket === this.generation && this.readModels.connected && this.readModels.keepingDay() === day;
  }
}

/** The kept form of the products `ids`: their texts, '' for those without offers. */
async function readTexts(pool: pg.Pool, ids: number[]): Promise<Map<number, KeptHit>> {
  const texts = new Map<number, KeptHit>(ids.map((id) => [id, NO_OFFERS]));
  for (const row of await hitTextsOfProducts(pool, ids)) texts.set(row.id, row.hit);
  return texts;
}

function rowsOfHits(hits: StoredHit[]): HitRows {
  const products: HitProductRow[] = [];
  const offers: OfferRow[] = [];
  for (const hit of hits) {
    if (!hit.product) continue;
    products.push(hit.product);
    for (const o of hit.offers) offers.push(o);
  }
  return { products, offers };
}
