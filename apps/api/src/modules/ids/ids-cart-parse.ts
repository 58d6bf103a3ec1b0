import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One position of a received cart; `readable` false keeps an unreadable one as raw text (never dropped). */
export interface ReceivedPosition {
  readable: boolean;
  articleNumber: string | null;
  gtin: string | null;
  manufacturerId: string | null;
  manufacturerPid: string | null;
  shortName: string | null;
  quantity: number | null;
  unit: string | null;
  rawText: string;
  /** RefItems and (2.5.1) Referenz of the position, returned unchanged. */
  reference: Record<string, unknown> | null;
}

export interface ReceivedCart {
  version: string | null;
  /** OrderInfo of the cart (returned unchanged where the answer's schema allows it). */
  orderInfo: Record<string, unknown> | null;
  positions: ReceivedPosition[];
}

const parser = new XMLParser({
  // With or without the norm's namespace (default namespace or any prefix) the names are the same.
  removeNSPrefix: true,
  ignoreAttributes: true,
  // Article numbers keep leading zeros; numbers are read explicitly.
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => ['OrderItem', 'Referenz', 'Rohstoffanteil'].includes(name),
});

/** Raw text of every OrderItem element (prefixed or not), for unreadable positions and the pre-cart. */
const ORDER_ITEM = /<(?:[\w.-]+:)?OrderItem\b[^>]*>[\s\S]*?<\/(?:[\w.-]+:)?OrderItem\s*>/g;

const text = (v: unknown): string | null => {
  if (v == null) return null;
  if (typeof v === 'object') return null;
  const s = String(v).trim();
  return s ? s : null;
};

/** Decimal numbers of section 6 use a point; a comma (as German programs sometimes send) is accepted. */
export function parseDecimal(v: unknown): number | null {
  const s = text(v);
  if (!s) return null;
  const normalised = /^\d{1,3}(\.\d{3})+,\d+$/.test(s) ? s.replace(/\./g, '').replace(',', '.') : s.replace(',', '.');
  if (!/^[+-]?\d+(\.\d+)?$/.test(normalised)) return null;
  return Number(normalised);
}

function readItem(item: Record<string, unknown>, raw: string): ReceivedPosition {
  const quantity = parseDecimal(item.Qty);
  const articleNumber = text(item.ArtNo);
  const gtin = text(item.EAN);
  const manufacturerId = text(item.ManufacturerID);
  // The norm has no manufacturer article number: with a ManufacturerID, ArtNo may be the manufacturer's.
  const manufacturerPid =
    text(item.ManufacturerPID) ?? text(item.ManufacturerArtNo) ?? (manufacturerId ? articleNumber : null);
  const reference: Record<string, unknown> = {};
  if (item.RefItems && typeof item.RefItems === 'object') reference.RefItems = item.RefItems;
  if (Array.isArray(item.Referenz)) reference.Referenz = item.Referenz;
  if (text(item.ItemChara)) reference.ItemChara = text(item.ItemChara);
  const identified = Boolean(articleNumber || gtin || (manufacturerId && manufacturerPid));
  return {
    readable: identified && quantity != null,
    articleNumber,
    gtin,
    manufacturerId,
    manufacturerPid,
    shortName: text(item.Kurztext),
    quantity,
    unit: text(item.QU),
    rawText: raw,
    reference: Object.keys(reference).length ? reference : null,
  };
}

const unreadable = (raw: string): ReceivedPosition => ({
  readable: false,
  articleNumber: null,
  gtin: null,
  manufacturerId: null,
  manufacturerPid: null,
  shortName: null,
  quantity: null,
  unit: null,
  rawText: raw,
  reference: null,
});

function root(doc: unknown): Record<string, unknown> | null {
  const w = (doc as Record<string, unknown> | null)?.Warenkorb;
  return w && typeof w === 'object' ? (w as Record<string, unknown>) : null;
}

/**
 * Reads a cart of versions 2.0, 2.5 and 2.5.1 (the senden schemas). A document that is not well-formed
 * is read position by position, so that one broken OrderItem costs only that position; whatever
 * cannot be read becomes an unreadable position with its raw text.
 */
export function parseReceivedCart(xml: string): ReceivedCart {
  const rawItems = xml.match(ORDER_ITEM) ?? [];
  if (XMLValidator.validate(xml) === true) {
    const w = root(parser.parse(xml));
    if (w) {
      const order = (w.Order ?? {}) as Record<string, unknown>;
      const items = (Array.isArray(order.OrderItem) ? order.OrderItem : []) as unknown[];
      const positions = items.map((item, i) =>
        item && typeof item === 'object'
          ? readItem(item as Record<string, unknown>, rawItems[i] ?? '')
          : unreadable(rawItems[i] ?? String(item)),
      );
      const info = (w.WarenkorbInfo ?? {}) as Record<string, unknown>;
      return {
        version: text(info.Version),
        orderInfo:
          order.OrderInfo && typeof order.OrderInfo === 'object' ? (order.OrderInfo as Record<string, unknown>) : null,
        positions,
      };
    }
  }
  const positions = rawItems.map((raw) => {
    if (XMLValidator.validate(raw) !== true) return unreadable(raw);
    const item = (parser.parse(raw) as Record<string, unknown[]>).OrderItem?.[0];
    return item && typeof item === 'object' ? readItem(item as Record<string, unknown>, raw) : unreadable(raw);
  });
  if (!positions.length && xml.trim()) positions.push(unreadable(xml.trim().slice(0, 4000)));
  return { version: null, orderInfo: null, positions };
}
