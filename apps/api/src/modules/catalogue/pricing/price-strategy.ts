import { round2 } from '@shk/contracts';

/**
 * How an offer's price for the caller's business partner is found. The default strategy returns
 * the supplier's net list price from the catalogue; a customer-specific strategy (conditions per
 * buyer, or a live price request to the supplier's system) implements the same interface and is
 * passed to the runtime (`AppDeps.prices`). Search, product, cart, checkout and the order document all
 * read prices through `priceStrategyOf(deps)` and total them with `priceTotal`.
 */
export interface PricedOffer {
  productInstanceId: string;
  supplierBpNumber: string;
  netPrice: number | null;
  priceBasis: number;
  priceQuantityUnit: string | null;
  grossListPrice: number | null;
  priceOnDemand: boolean;
}

export interface PriceContext {
  /** The caller's current business partner (null for staff without a partner). */
  buyerBpNumber: string | null;
}

export interface ResolvedPrice {
  /** Net price for `basis` quantity units; null when on demand or unavailable. */
  value: number | null;
  basis: number;
  quantityUnit: string | null;
  priceOnDemand: boolean;
  grossListPrice: number | null;
  /** The price could not be determined (spec: "price temporarily unavailable"). */
  hasConnectionError: boolean;
}

export interface PriceStrategy {
  readonly name: string;
  /** Prices of several offers at once (a remote strategy batches its requests). */
  pricesFor(offers: PricedOffer[], context: PriceContext): Promise<Map<string, ResolvedPrice>>;
  /**
   * Whether totals computed with this strategy may be stored (the cart overview keeps each cart's totals): a stamp
   * that changes whenever the strategy's answers for this buyer can change apart from the offer rows, relations
   * and units (those are watched by the portal: catalogue version, cart_totals triggers, the price day). The
   * list-price strategy depends on nothing else; a strategy that asks a supplier's system live returns null (or
   * leaves this out), and the overview then prices every line on every call.
   */
  cacheStamp?(context: PriceContext): string | null;
}

/** Net list prices as loaded with the catalogue; the same for every buyer. */
export const listPriceStrategy: PriceStrategy = {
  name: 'list-price',
  cacheStamp: () => 'list-price',
  async pricesFor(offers) {
    return new Map(
      offers.map((o) => [
        o.productInstanceId,
        {
          value: o.priceOnDemand ? null : o.netPrice,
          basis: o.priceBasis,
          quantityUnit: o.priceQuantityUnit,
          priceOnDemand: o.priceOnDemand,
          grossListPrice: o.grossListPrice,
          hasConnectionError: !o.priceOnDemand && o.netPrice === null,
        },
      ]),
    );
  },
};

/** The strategy in force for this app: the one it was built with, else the catalogue's list prices. */
export function priceStrategyOf(deps: { prices?: PriceStrategy }): PriceStrategy {
  return deps.prices ?? listPriceStrategy;
}

/** Price total as the spec defines it: price / basis × minimum quantity × quantity. */
export function priceTotal(price: number, basis: number, minimumQuantity: number, quantity: number): number {
  // A missing or nonsensical basis/minimum counts as 1 (one unit), as the catalogue import allows neither.
  const perUnit = price / (basis > 0 ? basis : 1);
  return round2(perUnit * (minimumQuantity > 0 ? minimumQuantity : 1) * quantity);
}
