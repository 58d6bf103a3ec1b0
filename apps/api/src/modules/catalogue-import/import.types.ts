/**
 * The one result model every catalogue format is parsed into (BMEcat 2005, DATANORM 4/5); the
 * import pipeline only knows these types.
 */
export type ImportFormat = 'BMEcat 2005' | 'DATANORM 4' | 'DATANORM 5';
/** Full catalogue (offers missing from the file are withdrawn), product update, price update. */
export type ImportTransaction = 'T_NEW_CATALOG' | 'T_UPDATE_PRODUCTS' | 'T_UPDATE_PRICES';

export interface ImportedFeature {
  id: string;
  value: string;
  unit: string | null;
}

export interface ImportedPrice {
  /** Net list price per price quantity (BMEcat net_list / DATANORM Nettopreis). */
  net: number | null;
  /** Gross list price (BMEcat nrp / DATANORM Bruttopreis). */
  gross: number | null;
  /** Staggered net prices from a lower bound above 1, ascending. */
  scales: { from: number; price: number }[];
  validFrom: string | null;
  validTo: string | null;
}

export interface ImportedArticle {
  /** 1-based position of the product (BMEcat) or line (DATANORM) in the file. */
  position: number;
  supplierPid: string;
  /** BMEcat PRODUCT mode (T_UPDATE_PRODUCTS): delete withdraws the offer. */
  mode: 'new' | 'update' | 'delete';
  shortDescription: string | null;
  longDescription: string | null;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerPid: string | null;
  manufacturerTypeDescr: string | null;
  keywords: string[];
  etimClass: string | null;
  features: ImportedFeature[];
  orderUnit: string | null;
  contentUnit: string | null;
  priceQuantity: number | null;
  minQuantity: number | null;
  interval: number | null;
  deliveryDays: number | null;
  /** The price block valid today (Europe/Berlin); null when the file has none that has begun. */
  price: ImportedPrice | null;
  /** Price blocks whose validity starts after today (Europe/Berlin), ascending. */
  futurePrices: ImportedPrice[];
  media: { source: string; type: string; description: string | null; purpose: string | null }[];
  references: { type: string; target: string }[];
  groupIds: string[];
  /** German reason when the product cannot be imported; the product is then rejected alone. */
  error: string | null;
  /** German notes on values the product is imported without (left out, cut or defaulted): warnings, not rejections. */
  warnings: string[];
}

export interface ImportedGroup {
  id: string;
  name: string;
  parentId: string | null;
}

/** A readable name the file gives a classification id (ETIM class, feature or value). */
export interface ImportedName {
  kind: 'class' | 'feature' | 'value';
  id: string;
  name: string;
}

export type ImportEvent =
  | { kind: 'header'; format: ImportFormat; transaction: ImportTransaction }
  | { kind: 'names'; names: ImportedName[] }
  | { kind: 'group'; group: ImportedGroup }
  | { kind: 'article'; article: ImportedArticle }
  | { kind: 'groupMap'; supplierPid: string; groupId: string };

export function emptyArticle(position: number): ImportedArticle {
  return {
    position,
    supplierPid: '',
    mode: 'new',
    shortDescription: null,
    longDescription: null,
    gtin: null,
    manufacturerName: null,
    manufacturerPid: null,
    manufacturerTypeDescr: null,
    keywords: [],
    etimClass: null,
    features: [],
    orderUnit: null,
    contentUnit: null,
    priceQuantity: null,
    minQuantity: null,
    interval: null,
    deliveryDays: null,
    price: null,
    futurePrices: [],
    media: [],
    references: [],
    groupIds: [],
    error: null,
    warnings: [],
  };
}

/** Decimal numbers as suppliers write them ("12.50", "12,50"); null when not a number. */
export function parseDecimal(text: string | null | undefined): number | null {
  if (text == null) return null;
  const t = text.trim().replace(/\s/g, '');
  if (!t) return null;
  const normalised =
    /,\d+$/.test(t) && !/\.\d+$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  const n = Number(normalised);
  return Number.isFinite(n) ? n : null;
}

/** Today's date (YYYY-MM-DD) in Europe/Berlin: prices are valid by the German calendar day. */
export function berlinToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
