/**
 * Offers of the product page (product, offer list, related products) as views for the caller, from one statement
 * (product-page.repo.ts) instead of four round trips: the same rules as offers.ts — price via the price strategy,
 * orderability via the one relations rule (orderabilityOf) with UnitNotSupported on top, supplier settings read on
 * every request (so an administrator's change shows with the next request), favourites first in preferOffers.
 */
import type pg from 'pg';
import { orderabilityOf } from '../relations/orderability.ts';
import { preferOffers, withUnitRule, type CallerContext, type OfferView } from './offers.ts';
import { offerRowsWithCallerState } from './product-page.repo.ts';

const toNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The offers of the products matching `productCondition` (on products `p`, parameters from $3), by product, preferred first. */
export async function offersWithCallerState(
  pool: pg.Pool,
  ctx: CallerContext,
  productCondition: string,
  params: unknown[],
): Promise<Map<number, OfferView[]>> {
  const stateRows = await offerRowsWithCallerState(pool, ctx.userId, ctx.bpNumber, productCondition, params);
  const prices = await ctx.prices.pricesFor(
    stateRows.map((r) => ({
      productInstanceId: r.product_instance_id,
      supplierBpNumber: r.supplier_bp_number,
      netPrice: toNumber(r.net_price),
      priceBasis: Number(r.price_basis),
      priceQuantityUnit: r.price_quantity_unit,
      grossListPrice: toNumber(r.gross_list_price),
      priceOnDemand: r.price_on_demand,
    })),
    { buyerBpNumber: ctx.bpNumber },
  );
  const byProduct = new Map<number, OfferView[]>();
  for (const s of stateRows) {
    const {
      relation_status_id,
      relation_active,
      settings_bp,
      required_onboarding_form,
      hide_additional_info,
      hide_gross_price,
      is_favourite,
      ...offer
    } = s;
    const row = {
      ...offer,
      net_price: toNumber(offer.net_price),
      price_basis: Number(offer.price_basis),
      gross_list_price: toNumber(offer.gross_list_price),
      min_order_quantity: Number(offer.min_order_quantity),
    };
    const cached = ctx.meta.supplierByBp.get(row.supplier_bp_number) ?? {
      no: -1,
      bp: row.supplier_bp_number,
      name: row.supplier_bp_number,
      organisationType: 0,
      requiredOnboardingForm: false,
      hideAdditionalInfo: false,
      hideGrossPrice: false,
    };
    const supplier =
      settings_bp === null
        ? { ...cached }
        : {
            ...cached,
            requiredOnboardingForm: Boolean(required_onboarding_form),
            hideAdditionalInfo: Boolean(hide_additional_info),
            hideGrossPrice: Boolean(hide_gross_price),
          };
    const hasUnitError = !ctx.meta.units.has(row.unit_code);
    const price = prices.get(row.product_instance_id)!;
    const relation =
      ctx.bpNumber && relation_status_id !== null
        ? { relationStatusId: Number(relation_status_id), isActive: Boolean(relation_active) }
        : undefined;
    const view: OfferView = {
      row,
      supplier,
      hasUnitError,
      isFavorite: is_favourite,
      price: supplier.hideGrossPrice ? { ...price, grossListPrice: null } : price,
      orderableStatus: withUnitRule(orderabilityOf(relation), !hasUnitError),
    };
    const list = byProduct.get(row.product_no) ?? [];
    list.push(view);
    byProduct.set(row.product_no, list);
  }
  for (const list of byProduct.values()) list.sort(preferOffers);
  return byProduct;
}
