import { messages } from './messages.ts';

/** The largest quantity of one cart line (buyer-side.md §5: whole numbers greater than 0, six digits). */
export const MAX_QUANTITY = 999_999;

const quantityFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 3 });

/** A quantity as the buyer sees it: German digits, up to 3 decimals ('1.000', '2,5'). */
export const formatQuantityValue = (value: number) => quantityFormat.format(value);

/** True for a whole number from 1 to MAX_QUANTITY. */
export const isValidQuantity = (value: number) => Number.isInteger(value) && value > 0 && value <= MAX_QUANTITY;

/** A typed quantity ('12', ' 10 '), or null when it is not a whole number from 1 to MAX_QUANTITY. */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return isValidQuantity(value) ? value : null;
}

/** The spec's message for a quantity below the offer's minimum order quantity, else null. */
export function minQuantityError(quantity: number, minOrderQuantity: number | null | undefined): string | null {
  const min = minOrderQuantity && minOrderQuantity > 0 ? minOrderQuantity : 1;
  return quantity < min ? messages.minOrderQuantity(formatQuantityValue(min)) : null;
}
