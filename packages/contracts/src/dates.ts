import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

import { BUSINESS_TIME_ZONE } from './time-zone.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Today in Europe/Berlin as yyyy-mm-dd. */
export function businessToday(now: Date = new Date()): string {
  return dayjs(now).tz(BUSINESS_TIME_ZONE).format('YYYY-MM-DD');
}

/**
 * The earliest delivery date a buyer may choose: tomorrow in Europe/Berlin (buyer-side.md §5). The browser's
 * date picker and the API's check both use this, so they agree near midnight.
 */
export function earliestDeliveryDate(now: Date = new Date()): string {
  return dayjs.utc(businessToday(now)).add(1, 'day').format('YYYY-MM-DD');
}
