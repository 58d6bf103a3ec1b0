/** Below this the counter is a dropdown 1–9 plus '10+'; from here on a numeric input with confirm (spec §4). */
export const QUANTITY_INPUT_FROM = 10;

// The quantity rule itself (whole numbers 1–999,999, minimum order quantity message) lives in contracts.
export { minQuantityError, parseQuantity } from '@shk/contracts';
