/**
 * Offers (product instances) of products for the caller's current business partner: price via
 * the price strategy, orderability via the one relations rule (orderabilityBySupplier) and
 * UnitNotSupported on top when the order unit is not a known unit.
 */
import type pg from 'pg';
import { ProductOrderableStatus } from '@shk/contracts';
import { orderabilityBySupplier } from '../relations/index.ts';
import { snapshotId, type ReadModelCache } from '../../http/read-model-cache.ts';
import {
  allFavouriteInstanceIds,
  favouriteInstanceIds,
  hitRowsOfProducts,
  offerRowOf,
  supplierSettingRows,
  type OfferRow,
} from './catalogue.repo.ts';
import type { CatalogueMeta, SupplierMeta } from './catalogue-meta.ts';
import type { PriceStrategy, ResolvedPrice } from './pricing/price-strategy.ts';

export type { OfferRow } from './catalogue.repo.ts';

export interface OfferView {
  row: OfferRow;
  supplier: SupplierMeta;
  price: ResolvedPrice;
  orderableStatus: ProductOrderableStatus;
  hasUnitError: boolean;
  isFavorite: boolean;
  /**
   * The offer's conditions (prices, minimum quantity, delivery time) are withheld from this caller: a seller looking
   * at a competitor's offer. `row` and `price` then carry none of them.
   */
  conditionsHidden: boolean;
}

export interface CallerContext {
  userId: string;
  bpNumber: string | null;
  meta: CatalogueMeta;
  prices: PriceStrategy;
  /**
   * Set for a seller: the only supplier whose offers show their conditions to this caller (its own partner; an empty
   * string when the seller has none). Null or missing: every offer shows them (buyers and staff, docs/security.md).
   */
  conditionsOnlyFor?: string | null;
  /**
   * The process's read-model cache: the caller's relations, the suppliers' settings and the caller's favourites are
   * then kept until their tables change (every process hears of it, http/read-model-cache.ts). Missing: read per call.
   */
  readModels?: ReadModelCache;
}

/** Whether the caller may see the conditions of an offer of this supplier (a marketplace: sellers see only their own). */
export function conditionsVisible(ctx: Pick<CallerContext, 'conditionsOnlyFor'>, supplierBpNumber: string): boolean {
  return ctx.conditionsOnlyFor === null || ctx.conditionsOnlyFor === undefined
    ? true
    : ctx.conditionsOnlyFor === supplierBpNumber;
}

/** What a withheld offer says about its price: nothing (no value, no basis, not "on demand", no error). */
const WITHHELD_PRICE: ResolvedPrice = {
  value: null,
  basis: 1,
  quantityUnit: null,
  priceOnDemand: false,
  grossListPrice: null,
  hasConnectionError: false,
};

/** The offer row without the supplier's conditions, so that no view built from it can show them. */
function withoutConditions(row: OfferRow): OfferRow {
  return {
    ...row,
    net_price: null,
    price_basis: 1,
    price_quantity_unit: null,
    gross_list_price: null,
    price_on_demand: false,
    min_order_quantity: 1,
    min_order_unit: null,
    time_to_delivery_days: null,
  };
}

/** Offers of the given products, grouped by product and in preference order (see preferOffers). */
export async function offersOfProducts(
  pool: pg.Pool,
  productNos: number[],
  ctx: CallerContext,
): Promise<Map<number, OfferView[]>> {
  if (!productNos.length) return new Map();
  const read = hitRowsOfProducts(pool, productNos, ctx.userId, ctx.bpNumber);
  return offersOfRows(
    pool,
    ctx,
    read.then((r) => r.offers),
    read.then((r) => new Set(r.favourites)),
  );
}

/**
 * Offers of products, grouped by product and in preference order (see preferOffers), from offer rows and the caller's
 * favourites among them that are being read (one statement, hitRowsOfProducts): the lookups that do not need the
 * offer rows run beside it (relations and supplier settings of every supplier of the catalogue).
 */
export async function offersOfRows(
  pool: pg.Pool,
  ctx: CallerContext,
  offerRows: Promise<OfferRow[]>,
  favouriteIds: Promise<Set<string>>,
): Promise<Map<number, OfferView[]>> {
  const byProduct = new Map<number, OfferView[]>();
  const known = [...ctx.meta.supplierByBp.keys()];
  const [rows, lookups] = await Promise.all([
    offerRows,
    supplierLookups(pool, ctx, known, favouriteIds, `meta\u0000${snapshotId(ctx.meta)}`),
  ]);
  const offers = rows.map(numeric);
  // A supplier the catalogue meta does not know yet (loaded since): its lookups now.
  const unknown = [...new Set(offers.map((r) => r.supplier_bp_number))].filter((bp) => !ctx.meta.supplierByBp.has(bp));
  const extra = unknown.length ? await supplierLookups(pool, ctx, unknown, Promise.resolve(lookups.favourites)) : null;
  const merged: Lookups = extra
    ? {
        orderability: new Map([...lookups.orderability, ...extra.orderability]),
        settings: new Map([...lookups.settings, ...extra.settings]),
        favourites: lookups.favourites,
      }
    : lookups;
  for (const view of await viewsWith(offers, ctx, merged)) {
    const list = byProduct.get(view.row.product_no) ?? [];
    list.push(view);
    byProduct.set(view.row.product_no, list);
  }
  for (const list of byProduct.values()) list.sort(preferOffers);
  return byProduct;
}

export async function findOfferRow(pool: pg.Pool, productInstanceId: string): Promise<OfferRow | null> {
  const row = await offerRowOf(pool, productInstanceId);
  return row ? numeric(row) : null;
}

const isNumberOrNull = (v: unknown) => v === null || typeof v === 'number';
const toNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * NUMERIC columns as numbers, whatever type parser the pg module was configured with. A row that has them as numbers
 * already (the hits' store's rows, parsed from JSON) is used as it is: no copy per offer and search.
 */
function numeric(row: OfferRow): OfferRow {
  if (
    isNumberOrNull(row.net_price) &&
    typeof row.price_basis === 'number' &&
    isNumberOrNull(row.gross_list_price) &&
    typeof row.min_order_quantity === 'number'
  )
    return row;
  return {
    ...row,
    net_price: toNumber(row.net_price),
    price_basis: Number(row.price_basis),
    gross_list_price: toNumber(row.gross_list_price),
    min_order_quantity: Number(row.min_order_quantity),
  };
}

interface Lookups {
  orderability: Map<string, ProductOrderableStatus>;
  settings: Map<string, SupplierSettingFlags>;
  favourites: Set<string>;
}

/**
 * The relations of the caller's partner to the suppliers and the suppliers' settings. `listKey` names the supplier
 * list when it is a stable one (the catalogue meta's suppliers of a version): the lookups are then kept by the
 * read-model cache until supplier_customers or suppliers change.
 */
async function supplierLookups(
  pool: pg.Pool,
  ctx: CallerContext,
  supplierBps: string[],
  favourites: Promise<Set<string>>,
  listKey?: string,
): Promise<Lookups> {
  const cache = listKey === undefined ? undefined : ctx.readModels;
  const orderability = () => orderabilityBySupplier({ $client: pool }, ctx.bpNumber, supplierBps);
  const settings = () => supplierSettingsOf(pool, supplierBps);
  const [orderabilityMap, settingsMap, favs] = await Promise.all([
    // Without a partner every supplier is "relation missing": nothing is read.
    cache && ctx.bpNumber
      ? cache.read(`orderability\u0000${ctx.bpNumber}\u0000${listKey}`, ['supplier_customers'], orderability)
      : orderability(),
    cache ? cache.read(`supplier-settings\u0000${listKey}`, ['suppliers'], settings) : settings(),
    favourites,
  ]);
  return { orderability: orderabilityMap, settings: settingsMap, favourites: favs };
}

/**
 * All favourites of the caller for its partner, kept by the read-model cache until favorite_products changes (the
 * search hits' store marks a page's favourites from it); none without a partner. Shared between requests: never
 * change the set.
 */
export function callerFavourites(pool: pg.Pool, ctx: CallerContext): Promise<Set<string>> {
  const { bpNumber, readModels } = ctx;
  if (!bpNumber) return Promise.resolve(new Set());
  const load = async () => new Set(await allFavouriteInstanceIds(pool, ctx.userId, bpNumber));
  return readModels
    ? readModels.read(`favourites\u0000${ctx.userId}\u0000${bpNumber}`, ['favorite_products'], load)
    : load();
}

async function viewsOf(pool: pg.Pool, rows: OfferRow[], ctx: CallerContext): Promise<OfferView[]> {
  const supplierBps = [...new Set(rows.map((r) => r.supplier_bp_number))];
  const lookups = await supplierLookups(
    pool,
    ctx,
    supplierBps,
    favouriteInstances(
      pool,
      ctx,
      rows.map((r) => r.product_instance_id),
    ),
  );
  return viewsWith(rows, ctx, lookups);
}

async function viewsWith(rows: OfferRow[], ctx: CallerContext, lookups: Lookups): Promise<OfferView[]> {
  const { orderability, settings, favourites } = lookups;
  const prices = await pricesOfOffers(rows, ctx);
  return rows.map((row) =>
    offerView(row, prices.get(row.product_instance_id), ctx, {
      relationStatus: orderability.get(row.supplier_bp_number) ?? ProductOrderableStatus.RelationMissing,
      settings: settings.get(row.supplier_bp_number),
      isFavourite: favourites.has(row.product_instance_id),
    }),
  );
}

/**
 * The caller's prices of the offers (the price strategy), by product instance id. Offers whose conditions the caller
 * may not see are not priced at all (a live strategy would otherwise ask the competitor's system for them).
 */
export function pricesOfOffers(rows: OfferRow[], ctx: CallerContext): Promise<Map<string, ResolvedPrice>> {
  return ctx.prices.pricesFor(
    rows
      .filter((r) => conditionsVisible(ctx, r.supplier_bp_number))
      .map((r) => ({
        productInstanceId: r.product_instance_id,
        supplierBpNumber: r.supplier_bp_number,
        netPrice: r.net_price,
        priceBasis: r.price_basis,
        priceQuantityUnit: r.price_quantity_unit,
        grossListPrice: r.gross_list_price,
        priceOnDemand: r.price_on_demand,
      })),
    { buyerBpNumber: ctx.bpNumber },
  );
}

/** What the caller's partner and the supplier's current settings add to an offer row. */
export interface OfferCallerState {
  /** The relation rule's status for the caller's partner and the offer's supplier (before the unit rule). */
  relationStatus: ProductOrderableStatus;
  /** The supplier's settings as read with this request; missing: the catalogue meta's. */
  settings: SupplierSettingFlags | undefined;
  isFavourite: boolean;
}

/**
 * One offer as the caller sees it: supplier with its current settings, price, unit rule and orderability; a
 * competitor's offer seen by a seller without its conditions (`price` is then not asked for and may be missing).
 */
export function offerView(
  row: OfferRow,
  price: ResolvedPrice | undefined,
  ctx: CallerContext,
  state: OfferCallerState,
): OfferView {
  const cached = ctx.meta.supplierByBp.get(row.supplier_bp_number) ?? {
    no: -1,
    bp: row.supplier_bp_number,
    name: row.supplier_bp_number,
    organisationType: 0,
    requiredOnboardingForm: false,
    hideAdditionalInfo: false,
    hideGrossPrice: false,
  };
  const supplier = { ...cached, ...state.settings };
  const hasUnitError = !ctx.meta.units.has(row.unit_code);
  const orderableStatus = withUnitRule(state.relationStatus, !hasUnitError);
  if (!conditionsVisible(ctx, row.supplier_bp_number)) {
    return {
      row: withoutConditions(row),
      supplier,
      hasUnitError,
      isFavorite: state.isFavourite,
      price: WITHHELD_PRICE,
      orderableStatus,
      conditionsHidden: true,
    };
  }
  // A strategy that could not price the offer: "price temporarily unavailable".
  const resolved = price ?? { ...WITHHELD_PRICE, basis: row.price_basis, hasConnectionError: true };
  return {
    row,
    supplier,
    hasUnitError,
    isFavorite: state.isFavourite,
    price: supplier.hideGrossPrice ? { ...resolved, grossListPrice: null } : resolved,
    orderableStatus,
    conditionsHidden: false,
  };
}

/** An offer the relation would allow is still not orderable in a unit the portal does not know (same rule as the carts). */
export function withUnitRule(relationStatus: ProductOrderableStatus, unitKnown: boolean): ProductOrderableStatus {
  return relationStatus === ProductOrderableStatus.Orderable && !unitKnown
    ? ProductOrderableStatus.UnitNotSupported
    : relationStatus;
}

export async function offerViews(pool: pg.Pool, rows: OfferRow[], ctx: CallerContext): Promise<OfferView[]> {
  return (await viewsOf(pool, rows, ctx)).sort(preferOffers);
}

export type SupplierSettingFlags = Pick<
  SupplierMeta,
  'requiredOnboardingForm' | 'hideAdditionalInfo' | 'hideGrossPrice'
>;

/**
 * The supplier settings an administrator changes on /admin (hide flags, onboarding form), read on every
 * request rather than from the catalogue meta cache (which only reloads with a new catalogue version), so
 * a saved change shows in search and on product pages with the next request, in every API process.
 */
async function supplierSettingsOf(pool: pg.Pool, bps: string[]): Promise<Map<string, SupplierSettingFlags>> {
  if (!bps.length) return new Map();
  const rows = await supplierSettingRows(pool, bps);
  return new Map(
    rows.map((r) => [
      r.bp_number,
      {
        requiredOnboardingForm: Boolean(r.required_onboarding_form),
        hideAdditionalInfo: Boolean(r.hide_additional_info),
        hideGrossPrice: Boolean(r.hide_gross_price),
      },
    ]),
  );
}

async function favouriteInstances(pool: pg.Pool, ctx: CallerContext, instanceIds: string[]): Promise<Set<string>> {
  if (!ctx.bpNumber || !instanceIds.length) return new Set();
  return new Set(await favouriteInstanceIds(pool, ctx.userId, ctx.bpNumber, instanceIds));
}

/**
 * Which offer represents a product in a search hit: the caller's favourite, then one the caller
 * can order, then one whose conditions the caller sees (a seller's own), then the lowest price, then a stable order
 * by supplier. Withheld prices never take part, so the order tells a seller nothing about competitors' prices.
 */
export function preferOffers(a: OfferView, b: OfferView): number {
  if (a.isFavorite !== b.isFavorite) return a.isFavorite ? -1 : 1;
  if (a.conditionsHidden !== b.conditionsHidden) return a.conditionsHidden ? 1 : -1;
  const orderableA = a.orderableStatus === ProductOrderableStatus.Orderable;
  const orderableB = b.orderableStatus === ProductOrderableStatus.Orderable;
  if (orderableA !== orderableB) return orderableA ? -1 : 1;
  const pa = unitPrice(a),
    pb = unitPrice(b);
  if (pa !== pb) return pa - pb;
  return a.row.product_instance_id.localeCompare(b.row.product_instance_id);
}

const unitPrice = (o: OfferView) => (o.price.value === null ? Number.MAX_VALUE : o.price.value / (o.price.basis || 1));
