import { BUSINESS_TIME_ZONE } from '@shk/contracts';

/**
 * The first German number or date format of a page loads the browser's ICU data for the locale and time zone (5–20 ms
 * of main thread on a phone). Done while the page waits for the network, it no longer lengthens the task that
 * evaluates the page's code (ui/format.ts creates its formats when it is loaded).
 */
export function warmUpGermanFormats(): void {
  new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(0);
  new Intl.DateTimeFormat('de-DE', { timeZone: BUSINESS_TIME_ZONE }).format(0);
}
