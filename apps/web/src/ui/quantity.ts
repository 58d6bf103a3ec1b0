import { messages } from '@shk/contracts';
import { formatQuantity } from './format';

/** Below this the counter is a dropdown 1–9 plus '10+'; from here on a numeric input with confirm (spec §4). */
export const QUANTITY_INPUT_FROM = 10;

/** A typed quantity: whole numbers greater than 0 only (spec §5). */
export function parseQuantity(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The message for a quantity below the offer's minimum order quantity, else null. */
export function minQuantityError(quantity: number, minQuantity: number | null | undefined): string | null {
  const min = minQuantity && minQuantity > 0 ? minQuantity : 1;
  return quantity < min ? messages.minOrderQuantity(formatQuantity(min)) : null;
}
