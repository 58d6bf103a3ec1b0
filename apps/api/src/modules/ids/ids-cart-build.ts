import { XMLBuilder } from 'fast-xml-parser';
import { businessToday, type IdsVersion } from '@shk/contracts';

export const IDS_NAMESPACE = 'http://www.itek.de/Shop-Anbindung/Warenkorb/';

/** A position of the returned cart: a portal offer, or a received position that could not be matched. */
export interface ReturnPosition {
  articleNumber: string;
  gtin: string | null;
  manufacturerId: string | null;
  manufacturerIdType: string | null;
  quantity: number;
  unit: string | null;
  shortName: string | null;
  longText: string | null;
  /** Net price per `priceBasis` units; null: price on request. */
  unitPrice: number | null;
  priceBasis: number;
  /** Net position total. */
  total: number | null;
  hint: string | null;
  error: { code: number; text: string } | null;
  reference: Record<string, unknown> | null;
}

export interface ReturnCart {
  version: IdsVersion;
  withOrder: boolean;
  orderNumber: string | null;
  orderInfo: Record<string, unknown> | null;
  positions: ReturnPosition[];
  now?: Date;
}

/** UN/ECE unit codes of the catalogue → the norm's code list (section 8.1.1); other codes pass when they fit. */
const UNIT_MAP: Record<string, string> = {
  C62: 'PCE',
  H87: 'PCE',
  EA: 'PCE',
  STK: 'PCE',
  M: 'MTR',
  SET: 'SET',
  PR: 'PR',
};

export function idsUnit(code: string | null): string {
  const c = (code ?? '').trim().toUpperCase();
  const mapped = UNIT_MAP[c] ?? c;
  return mapped && mapped.length <= 4 ? mapped : 'PCE';
}

const dec = (n: number, digits: number) => n.toFixed(digits);
const cut = (s: string | null | undefined, max: number) =>
  s ? s.replace(/\s+/g, ' ').trim().slice(0, max) : undefined;

/** xs:sequence order matters: header fields are rebuilt in the schema's order, unknown ones left out. */
function orderInfo(
  version: IdsVersion,
  received: Record<string, unknown> | null,
  orderNumber: string | null,
  today: string,
) {
  const r = received ?? {};
  const pick = (k: string, max: number) =>
    cut(typeof r[k] === 'string' || typeof r[k] === 'number' ? String(r[k]) : undefined, max);
  const info: Record<string, unknown> = {};
  if (version === '2.5.1') {
    const refs = (Array.isArray(r.Referenz) ? r.Referenz : []).filter((x) => x && typeof x === 'object') as Record<
      string,
      unknown
    >[];
    const kept = refs.map((x) => ({
      ReferenzNumber: x.ReferenzNumber,
      ReferenzDate: x.ReferenzDate,
      ReferenzType: x.ReferenzType,
    }));
    // 231 (order response) carries the portal's order number.
    if (orderNumber) kept.push({ ReferenzNumber: orderNumber.slice(0, 15), ReferenzDate: today, ReferenzType: '231' });
    if (kept.length) info.Referenz = kept;
  } else {
    for (const k of ['InquiryNo', 'OfferNo', 'PartNo']) if (pick(k, 15)) info[k] = pick(k, 15);
    const conf = orderNumber ?? pick('OrderConfNo', 15);
    if (conf) info.OrderConfNo = conf.slice(0, 15);
  }
  if (r.DeliveryDate) info.DeliveryDate = String(r.DeliveryDate);
  else if (r.DeliveryWeek && r.DeliveryYear) {
    info.DeliveryWeek = String(r.DeliveryWeek);
    info.DeliveryYear = String(r.DeliveryYear);
  }
  info.ModeOfShipment = r.ModeOfShipment === 'Abholung' ? 'Abholung' : 'Lieferung';
  info.Cur = 'EUR';
  if (pick('ZusatzText', 100)) info.ZusatzText = pick('ZusatzText', 100);
  if (pick('Kommission', 80)) info.Kommission = pick('Kommission', 80);
  return info;
}

function refItems(ref: unknown) {
  if (!ref || typeof ref !== 'object') return undefined;
  const r = ref as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ['Customer', 'CustomerSubNo', 'Supplier', 'SupplierSubNo'])
    if (r[k] != null && r[k] !== '') out[k] = String(r[k]);
  return Object.keys(out).length ? out : undefined;
}

function orderItem(version: IdsVersion, p: ReturnPosition) {
  const item: Record<string, unknown> = {};
  const ref = p.reference ?? {};
  if (typeof ref.ItemChara === 'string' && ['normal', 'alternate', 'provis'].includes(ref.ItemChara))
    item.ItemChara = ref.ItemChara;
  const refs = refItems(ref.RefItems);
  if (refs) item.RefItems = refs;
  const eanDigits = version === '2.5.1' ? 14 : 13;
  if (p.gtin && new RegExp(`^\\d{1,${eanDigits}}$`).test(p.gtin)) item.EAN = p.gtin;
  if (version !== '2.0' && p.manufacturerId) {
    item.ManufacturerID = cut(p.manufacturerId, 40);
    if (p.manufacturerIdType) item.ManufacturerIDType = cut(p.manufacturerIdType, 40);
  }
  item.ArtNo = cut(p.articleNumber, 15) ?? '';
  item.Qty = dec(p.quantity, 2);
  item.QU = idsUnit(p.unit);
  if (p.shortName) item.Kurztext = cut(p.shortName, 100);
  if (p.longText) item.Langtext = p.longText;
  // 2.0 requires prices; a position without one is returned with 0 and a hint.
  if (p.unitPrice != null || version === '2.0') {
    item.OfferPrice = dec(p.unitPrice ?? 0, 4);
    item.NetPrice = dec(p.total ?? 0, 4);
    item.PriceBasis = dec(p.priceBasis > 0 ? p.priceBasis : 1, 2);
    item.VAT = dec(19, 2);
  }
  const hint = p.hint ?? (p.unitPrice == null && !p.error ? 'Preis auf Anfrage' : null);
  if (hint) item.Hinweis = cut(hint, 256);
  if (p.error) {
    item.Fehlercode = String(p.error.code);
    item.Fehlertext = cut(p.error.text, 256);
  }
  if (version === '2.5.1' && Array.isArray(ref.Referenz)) {
    item.Referenz = (ref.Referenz as Record<string, unknown>[]).map((x) => ({
      ReferenzNumber: x.ReferenzNumber,
      ReferenzDate: x.ReferenzDate,
      ReferenzType: x.ReferenzType,
      ReferenzLine: x.ReferenzLine,
    }));
  }
  return item;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: false,
  processEntities: true,
});

/** The Warenkorb document of the call's version (warenkorb-empfangen-<version>.xsd). */
export function buildReturnCart(cart: ReturnCart): string {
  const now = cart.now ?? new Date();
  const today = businessToday(now);
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Warenkorb: {
      '@_xmlns': IDS_NAMESPACE,
      WarenkorbInfo: {
        Date: today,
        Time: now.toISOString().slice(11, 19),
        RueckgabeKZ: cart.withOrder ? 'Warenkorbrückgabe mit Bestellung' : 'Warenkorbrückgabe',
        Version: cart.version,
      },
      Order: {
        OrderInfo: orderInfo(cart.version, cart.orderInfo, cart.orderNumber, today),
        OrderItem: cart.positions.map((p) => orderItem(cart.version, p)),
      },
    },
  };
  return builder.build(doc) as string;
}
