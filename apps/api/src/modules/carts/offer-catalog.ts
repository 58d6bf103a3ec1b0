import type { ProductOrderableStatus } from '@shk/contracts';

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
}

/** Price total = price / basis × minimum quantity × quantity (buyer-side.md §5), rounded to cents. */
export function lineTotal(offer: Pick<OfferSnapshot, 'unitPrice' | 'priceBasis' | 'minOrderQuantity'>, quantity: number): number | null {
  if (offer.unitPrice == null) return null;
  const basis = offer.priceBasis > 0 ? offer.priceBasis : 1;
  const min = offer.minOrderQuantity > 0 ? offer.minOrderQuantity : 1;
  return Math.round((offer.unitPrice / basis) * min * quantity * 100) / 100;
}
