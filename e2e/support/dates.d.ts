/**
 * Today as the portal's data see it: the Berlin calendar day (yyyy-mm-dd). Tests fill date fields with it, never
 * with the UTC day, which is yesterday in Berlin between 22:00/23:00 and midnight UTC.
 */
export declare function berlinToday(now?: Date): string;
/** A yyyy-mm-dd day as the portal's date fields read and take it: dd.mm.yyyy. */
export declare function germanDate(isoDay: string): string;
