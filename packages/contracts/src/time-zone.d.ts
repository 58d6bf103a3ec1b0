/**
 * The portal's business day is the German one, wherever the browser or the server runs. Apart from `dates.ts` (dayjs
 * with its utc and timezone plugins): the SPA's date formats (Intl) need only this name, and its first pages then do
 * not download and set up dayjs.
 */
export declare const BUSINESS_TIME_ZONE = "Europe/Berlin";
