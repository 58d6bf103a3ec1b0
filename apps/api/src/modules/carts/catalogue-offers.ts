import { ProductOrderableStatus } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { orderabilityBySupplier, orderabilityOf } from '../relations/index.ts';
import type { OfferCatalog, OfferPricing, OfferSnapshot } from './offer-catalog.ts';
import { mediaUrl, withUnitRule, type PricedOffer, type PriceStrategy } from '../catalogue/index.ts';
import { offerPricingRows, offerSnapshotRows } from './carts.repo.ts';

/** The price strategy's input from a product_offers row (the same for the full snapshot and the pricing). */
const pricedOffer = (r: {
  product_instance_id: string;
  supplier_bp_number: string;
  net_price: string | null;
  price_basis: string;
  price_quantity_unit: string | null;
  gross_list_price: string | null;
  price_on_demand: boolean;
}): PricedOffer => ({
  productInstanceId: r.product_instance_id,
  supplierBpNumber: r.supplier_bp_number,
  netPrice: r.net_price == null ? null : Number(r.net_price),
  priceBasis: Number(r.price_basis),
  priceQuantityUnit: r.price_quantity_unit,
  grossListPrice: r.gross_list_price == null ? null : Number(r.gross_list_price),
  priceOnDemand: r.price_on_demand,
});

/**
 * Offers from the portal's own catalogue tables (products, product_offers), with the relation rule and
 * the app's price strategy – the same prices search and product pages show.
 */
export function catalogueOfferCatalog(db: Db, prices: PriceStrategy): OfferCatalog {
  return {
    async findOffers(buyerBpNumber, productInstanceIds) {
      const result = new Map<string, OfferSnapshot>();
      if (!productInstanceIds.length) return result;
      const rows = await offerSnapshotRows(db.$client, productInstanceIds);
      const [orderability, priced] = await Promise.all([
        orderabilityBySupplier(db, buyerBpNumber, [...new Set(rows.map((r) => r.supplier_bp_number as string))]),
        prices.pricesFor(rows.map(pricedOffer), { buyerBpNumber }),
      ]);
      for (const r of rows) {
        const picture = (r.media as { type: string; file: string }[]).find((m) => m.type === 'picture');
        const price = priced.get(r.product_instance_id);
        const relationStatus = orderability.get(r.supplier_bp_number) ?? ProductOrderableStatus.RelationMissing;
        result.set(r.product_instance_id, {
          productInstanceId: r.product_instance_id,
          supplierBpNumber: r.supplier_bp_number,
          supplierName: r.supplier_name,
          articleNumber: r.supplier_pid,
          manufacturerId: r.manufacturer_id,
          manufacturerPid: r.manufacturer_pid,
          manufacturerName: r.manufacturer_name,
          brandName: r.brand_name,
          productName: r.product_name,
          description: r.product_descr,
          imageUrl: picture ? mediaUrl(Number(r.product_no), picture.file) : null,
          unitPrice: price?.value ?? null,
          priceBasis: price?.basis ?? Number(r.price_basis),
          minOrderQuantity: Number(r.min_order_quantity),
          unit: r.unit_code,
          priceOnRequest: price?.priceOnDemand ?? r.price_on_demand,
          orderableStatus: withUnitRule(relationStatus, r.unit_known),
          requiredOnboardingForm: r.required_onboarding_form ?? false,
          hideAdditionalInfo: r.hide_additional_info ?? false,
        });
      }
      return result;
    },

    /** The overview's lean variant: offer prices, units and the buyer's relations in one statement. */
    async findPricing(buyerBpNumber, productInstanceIds) {
      const result = new Map<string, OfferPricing>();
      if (!productInstanceIds.length) return result;
      const rows = await offerPricingRows(db.$client, productInstanceIds, buyerBpNumber);
      const priced = await prices.pricesFor(rows.map(pricedOffer), { buyerBpNumber });
      for (const r of rows) {
        const price = priced.get(r.product_instance_id);
        const relation =
          r.relation_status_id == null ? undefined : { relationStatusId: r.relation_status_id, isActive: r.is_active };
        result.set(r.product_instance_id, {
          unitPrice: price?.value ?? null,
          priceBasis: price?.basis ?? Number(r.price_basis),
          minOrderQuantity: Number(r.min_order_quantity),
          orderableStatus: withUnitRule(orderabilityOf(relation), r.unit_known),
        });
      }
      return result;
    },
  };
}
