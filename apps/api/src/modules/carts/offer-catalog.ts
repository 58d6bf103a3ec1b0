import type { ProductOrderableStatus } from '@shk/contracts';
import { priceTotal } from '../catalogue/index.ts';

/** What a cart and an order line need to know about an offer (a supplier's product instance). */
export interface OfferSnapshot {
  productInstanceId: string;
  supplierBpNumber: string;
  supplierName: string;
  articleNumber: string;
  manufacturerId: string | null;
  manufacturerPid: string | null;
  manufacturerName: string | null;
  brandName: string | null;
  productName: string;
  description: string | null;
  imageUrl: string | null;
  /** Net price per `priceBasis` units; null when the price is on request or unavailable. */
  unitPrice: number | null;
  priceBasis: number;
  minOrderQuantity: number;
  unit: string | null;
  priceOnRequest: boolean;
  /** Orderability for the buyer partner the snapshot was read for. */
  orderableStatus: ProductOrderableStatus;
  requiredOnboardingForm: boolean;
  hideAdditionalInfo: boolean;
}

/**
 * How carts find offers (extension seam): the catalogue module provides the implementation; tests
 * and other sources (e.g. an IDS partner catalogue) can provide their own.
 */
export interface OfferCatalog {
  findOffers(buyerBpNumber: string, productInstanceIds: string[]): Promise<Map<string, OfferSnapshot>>;
  /**
   * Only what a cart's totals need (price, basis, minimum quantity, orderability) for many offers at once – the
   * cart overview. Must agree with `findOffers`; a catalogue without it is asked through `findOffers`.
   */
  findPricing?(buyerBpNumber: string, productInstanceIds: string[]): Promise<Map<string, OfferPricing>>;
}

/** The part of an offer that decides a cart line's value (`lineTotal`, `orderableGroups`). */
export type OfferPricing = Pick<OfferSnapshot, 'unitPrice' | 'priceBasis' | 'minOrderQuantity' | 'orderableStatus'>;

/** A cart or order line's total: the catalogue's one price-total rule (buyer-side.md §5). */
export function lineTotal(
  offer: Pick<OfferSnapshot, 'unitPrice' | 'priceBasis' | 'minOrderQuantity'>,
  quantity: number,
): number | null {
  return offer.unitPrice == null
    ? null
    : priceTotal(offer.unitPrice, offer.priceBasis, offer.minOrderQuantity, quantity);
}
