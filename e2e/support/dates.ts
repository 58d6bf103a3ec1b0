import { businessToday, earliestDeliveryDate } from '@shk/contracts';

/**
 * Today as the portal's data see it: the Berlin calendar day (yyyy-mm-dd). Tests fill date fields with it, never
 * with the UTC day, which is yesterday in Berlin between 22:00/23:00 and midnight UTC.
 */
export function berlinToday(now: Date = new Date()): string {
  return businessToday(now);
}

/** A yyyy-mm-dd day as the portal's date fields read and take it: dd.mm.yyyy. */
export function germanDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day}.${month}.${year}`;
}

/**
 * A delivery day one 'Nächster Monat' away in the delivery-date picker, as its day buttons name it (d.m.yyyy): the
 * 15th of the month after the earliest delivery date's. The picker opens on the month of the earliest delivery
 * date (tomorrow in Berlin), which is already next month on a month's last day in Berlin.
 */
export function deliveryDayOneMonthOn(now: Date = new Date()): string {
  const [year, month] = earliestDeliveryDate(now).split('-').map(Number);
  // Date.UTC's month is 0-based, so `month` (1-based) is the following month.
  const day = new Date(Date.UTC(year!, month!, 15));
  return `${day.getUTCDate()}.${day.getUTCMonth() + 1}.${day.getUTCFullYear()}`;
}
