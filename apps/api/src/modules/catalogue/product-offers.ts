/**
 * Offers of the product page (product, offer list, related products) as views for the caller, from one statement
 * (product-page.repo.ts) instead of four round trips: the same rules as offers.ts — price via the price strategy,
 * orderability via the one relations rule (orderabilityOf) with UnitNotSupported on top, supplier settings read on
 * every request (so an administrator's change shows with the next request), favourites first in preferOffers.
 */
import type pg from 'pg';
import { orderabilityOf } from '../relations/index.ts';
import {
  offerView,
  preferOffers,
  pricesOfOffers,
  type CallerContext,
  type OfferCallerState,
  type OfferRow,
  type OfferView,
} from './offers.ts';
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
  const offers = stateRows.map((s) => {
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
    const row: OfferRow = {
      ...offer,
      net_price: toNumber(offer.net_price),
      price_basis: Number(offer.price_basis),
      gross_list_price: toNumber(offer.gross_list_price),
      min_order_quantity: Number(offer.min_order_quantity),
    };
    const state: OfferCallerState = {
      relationStatus: orderabilityOf(
        ctx.bpNumber && relation_status_id !== null
          ? { relationStatusId: Number(relation_status_id), isActive: Boolean(relation_active) }
          : undefined,
      ),
      settings:
        settings_bp === null
          ? undefined
          : {
              requiredOnboardingForm: Boolean(required_onboarding_form),
              hideAdditionalInfo: Boolean(hide_additional_info),
              hideGrossPrice: Boolean(hide_gross_price),
            },
      isFavourite: is_favourite,
    };
    return { row, state };
  });
  const prices = await pricesOfOffers(
    offers.map((o) => o.row),
    ctx,
  );
  const byProduct = new Map<number, OfferView[]>();
  for (const { row, state } of offers) {
    const list = byProduct.get(row.product_no) ?? [];
    list.push(offerView(row, prices.get(row.product_instance_id), ctx, state));
    byProduct.set(row.product_no, list);
  }
  for (const list of byProduct.values()) list.sort(preferOffers);
  return byProduct;
}
