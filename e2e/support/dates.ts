import { businessToday } from '@shk/contracts';

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
