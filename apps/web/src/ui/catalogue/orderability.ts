import { messages, ProductOrderableStatus } from '@shk/contracts';

/** What the buyer is told about an offer that cannot be put into a cart (null: orderable). */
export function orderabilityHint(offer: {
  productOrderableStatus: number;
  hasConnectionError?: boolean;
  hasUnitError?: boolean;
}): string | null {
  if (offer.hasUnitError || offer.productOrderableStatus === ProductOrderableStatus.UnitNotSupported)
    return messages.unitInvalid;
  switch (offer.productOrderableStatus) {
    case ProductOrderableStatus.Orderable:
      return null;
    case ProductOrderableStatus.RelationMissing:
    case ProductOrderableStatus.RelationNotActive:
      return messages.productUnavailableAtSuppliers;
    default:
      return messages.productUnavailable;
  }
}

export const isOrderable = (offer: { productOrderableStatus: number; hasUnitError?: boolean }) =>
  offer.productOrderableStatus === ProductOrderableStatus.Orderable && !offer.hasUnitError;

/** Whether the buyer can fix the hint by registering a business relation (Meine Lieferanten). */
export const needsRelation = (status: number) =>
  status === ProductOrderableStatus.RelationMissing || status === ProductOrderableStatus.RelationNotActive;
