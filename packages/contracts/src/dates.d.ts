/** Today in Europe/Berlin as yyyy-mm-dd. */
export declare function businessToday(now?: Date): string;
/**
 * The earliest delivery date a buyer may choose: tomorrow in Europe/Berlin (buyer-side.md §5). The browser's
 * date picker and the API's check both use this, so they agree near midnight.
 */
export declare function earliestDeliveryDate(now?: Date): string;
