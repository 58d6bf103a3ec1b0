import { lineTotal, type OfferSnapshot } from '../carts/index.ts';

/** One cart line as both protocols return it. */
export interface PunchoutLine {
  offerId: string;
  description: string;
  longText: string | null;
  quantity: number;
  /** Our unit code (UN/ECE Rec. 20, e.g. C62, MTR). */
  unit: string | null;
  /** Net price per `priceBasis` units; null: price on request. */
  price: number | null;
  priceBasis: number;
  total: number | null;
  currency: 'EUR';
  leadDays: number | null;
  supplierBpNumber: string;
  supplierName: string;
  articleNumber: string;
  manufacturerId: string | null;
  manufacturerPid: string | null;
  manufacturerName: string | null;
  etimClass: string | null;
  gtin: string | null;
  minOrderQuantity: number;
  /** A cart line's project code (the line's, else the cart's); null outside a cart. */
  project: string | null;
  /** A cart line's note; null outside a cart. */
  comment: string | null;
}

export function lineOf(
  offer: OfferSnapshot,
  extras: { gtin: string | null; etim_class: string | null; lead_days: number | null } | undefined,
  quantity: number,
): PunchoutLine {
  return {
    offerId: offer.productInstanceId,
    description: offer.productName,
    longText: offer.description,
    quantity,
    unit: offer.unit,
    price: offer.unitPrice,
    priceBasis: offer.priceBasis,
    total: lineTotal(offer, quantity),
    currency: 'EUR',
    leadDays: extras?.lead_days ?? null,
    supplierBpNumber: offer.supplierBpNumber,
    supplierName: offer.supplierName,
    articleNumber: offer.articleNumber,
    manufacturerId: offer.manufacturerId,
    manufacturerPid: offer.manufacturerPid,
    manufacturerName: offer.manufacturerName,
    etimClass: extras?.etim_class ?? null,
    gtin: extras?.gtin ?? null,
    minOrderQuantity: offer.minOrderQuantity,
    project: null,
    comment: null,
  };
}

/** Our units (UN/ECE Rec. 20) → the ISO codes SAP's OCI expects (T006 ISO codes: PCE, MTR …). */
const ISO_UNITS: Record<string, string> = {
  C62: 'PCE',
  H87: 'PCE',
  EA: 'PCE',
  STK: 'PCE',
  PCE: 'PCE',
  MTR: 'MTR',
  M: 'MTR',
  MTK: 'MTK',
  MTQ: 'MTQ',
  LTR: 'LTR',
  KGM: 'KGM',
  SET: 'SET',
  PR: 'PR',
  PA: 'PK',
  PK: 'PK',
  RO: 'RO',
  CT: 'CT',
};

export function ociUnit(code: string | null): string {
  const c = (code ?? '').trim().toUpperCase();
  return ISO_UNITS[c] ?? (c && c.length <= 3 ? c : 'PCE');
}

/** Our units → UN/CEFACT Rec. 20 codes for cXML UnitOfMeasure (the catalogue mostly has them already). */
const CEFACT_UNITS: Record<string, string> = { STK: 'C62', PCE: 'C62', M: 'MTR', PA: 'PA', PK: 'PK' };

export function cefactUnit(code: string | null): string {
  const c = (code ?? '').trim().toUpperCase();
  return CEFACT_UNITS[c] ?? (c || 'C62');
}

/** Decimal point, no thousands separator, no trailing zeros beyond what is needed (at least `min` digits). */
export function decimal(n: number, min = 0, max = 4): string {
  const fixed = n.toFixed(max);
  const [int, frac = ''] = fixed.split('.');
  let f = frac.replace(/0+$/, '');
  while (f.length < min) f += '0';
  return f ? `${int}.${f}` : int;
}
