import { formatCurrency, formatQuantity } from '../format';
import { UnitText } from './units';

export interface PriceInfo {
  value: number | null;
  /** The price is for this many quantity units (default 1). */
  basis?: number | null;
  quantityUnit?: string | null;
  priceOnDemand?: boolean;
}

/** 'Preis (netto)' value: '12,30 €', '125,00 € / 100 m', 'Preis auf Anfrage', or a dash when unavailable. */
export function PriceText({ price, units }: { price: PriceInfo | null | undefined; units?: Map<string, string> }) {
  if (price?.priceOnDemand) return <>Preis auf Anfrage</>;
  if (!price || price.value === null || price.value === undefined) return <>–</>;
  const basis = price.basis && price.basis > 0 ? price.basis : 1;
  const showPer = basis !== 1 || price.quantityUnit;
  return (
    <>
      {formatCurrency(price.value)}
      {showPer && (
        <>
          {' / '}
          {basis !== 1 && `${formatQuantity(basis)} `}
          <UnitText unit={price.quantityUnit ?? 'C62'} units={units} />
        </>
      )}
    </>
  );
}
