import { SaxesParser } from 'saxes';

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

/** Why a cart is not read at all (the entry answers with the German error page). */
export class CartRefused extends Error {
  constructor(readonly reason: 'doctype' | 'timeBudget') {
    super(reason === 'doctype' ? 'cart with DOCTYPE or ENTITY declaration' : 'cart parsing exceeded its time budget');
  }
}

/** The reader hands the event loop back after each chunk, and gives up once the budget is spent. */
const CHUNK_CHARS = 256 * 1024;
export const CART_PARSE_BUDGET_MS = 5_000;

/** Elements that are always lists (the pre-cart's positions, the 2.5.1 reference and raw-material blocks). */
const LIST_ELEMENTS = new Set(['OrderItem', 'Referenz', 'Rohstoffanteil']);
/** A DTD may declare entities (billion laughs, external files): a cart with one is refused outright. */
const DTD = /<!(DOCTYPE|ENTITY)/i;

type Value = string | Node | Value[];
interface Node {
  [name: string]: Value;
}
interface Frame {
  name: string;
  node: Node;
  text: string;
  hasChildren: boolean;
  /** Index of the element's '<' in the document (OrderItem only, for its raw text). */
  start: number;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

function attach(parent: Node, name: string, value: Value) {
  const existing = parent[name];
  if (existing === undefined) parent[name] = LIST_ELEMENTS.has(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent[name] = [existing, value];
}

/**
 * Builds plain objects from the document with saxes (linear in its length): names without namespace prefix,
 * attributes ignored, text trimmed, an element with children an object (its own text under '#text'). The raw text
 * of every OrderItem is cut from the document by the parser's positions. Throws on the first well-formedness error.
 */
function elementReader(xml: string, onOrderItem?: (raw: string) => void) {
  const parser = new SaxesParser({ position: true });
  const top: Frame = { name: '', node: {}, text: '', hasChildren: true, start: 0 };
  const stack: Frame[] = [top];
  parser.on('doctype', () => {
    throw new CartRefused('doctype');
  });
  parser.on('opentagstart', (tag) => {
    const name = localName(tag.name);
    const start = name === 'OrderItem' ? xml.lastIndexOf('<', parser.position) : 0;
    stack[stack.length - 1].hasChildren = true;
    stack.push({ name, node: {}, text: '', hasChildren: false, start });
  });
  parser.on('text', (text) => {
    stack[stack.length - 1].text += text;
  });
  parser.on('cdata', (text) => {
    stack[stack.length - 1].text += text;
  });
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    const text = frame.text.trim();
    let value: Value = text;
    if (frame.hasChildren) {
      value = frame.node;
      if (text) frame.node['#text'] = text;
    }
    attach(stack[stack.length - 1].node, frame.name, value);
    if (frame.name === 'OrderItem') onOrderItem?.(xml.slice(frame.start, parser.position));
  });
  parser.on('error', (error) => {
    throw error;
  });
  return { parser, root: top.node };
}

/** Parses a whole document in chunks under the time budget, yielding to the event loop between chunks. */
async function readDocument(xml: string, budgetMs: number, onOrderItem: (raw: string) => void): Promise<Node> {
  const { parser, root } = elementReader(xml, onOrderItem);
  const started = performance.now();
  for (let i = 0; i < xml.length; i += CHUNK_CHARS) {
    parser.write(xml.slice(i, i + CHUNK_CHARS));
    if (performance.now() - started > budgetMs) throw new CartRefused('timeBudget');
    if (i + CHUNK_CHARS < xml.length) await new Promise((resolve) => setImmediate(resolve));
  }
  parser.close();
  return root;
}

/** One OrderItem on its own (the fallback for a document that is not well-formed); null when it is not either. */
function readSingleItem(raw: string): Node | null {
  try {
    const { parser, root } = elementReader(raw);
    parser.write(raw).close();
    const item = (root.OrderItem as Value[] | undefined)?.[0];
    return item && typeof item === 'object' && !Array.isArray(item) ? item : null;
  } catch {
    return null;
  }
}

/**
 * The raw OrderItem elements of a document that is not well-formed, found by their tags in one pass: each opening
 * tag up to the next closing tag (a nested or unclosed opening tag starts again).
 */
function rawOrderItems(xml: string): string[] {
  const tags = /<(\/?)(?:[\w.-]+:)?OrderItem\b[^<>]*>/g;
  const items: string[] = [];
  let open = -1;
  for (let m = tags.exec(xml); m; m = tags.exec(xml)) {
    if (!m[1]) open = m.index;
    else if (open >= 0) {
      items.push(xml.slice(open, m.index + m[0].length));
      open = -1;
    }
  }
  return items;
}

function root(doc: Node): Record<string, unknown> | null {
  const w = doc.Warenkorb;
  return w && typeof w === 'object' && !Array.isArray(w) ? w : null;
}

/**
 * Reads a cart of versions 2.0, 2.5 and 2.5.1 (the senden schemas) with a streaming parser, in time linear in its
 * length and within a time budget. A document that is not well-formed is read position by position, so that one
 * broken OrderItem costs only that position; whatever cannot be read becomes an unreadable position with its raw
 * text. A DOCTYPE or ENTITY declaration, or a document that takes longer than the budget, refuses the cart
 * (CartRefused).
 */
export async function parseReceivedCart(xml: string, budgetMs = CART_PARSE_BUDGET_MS): Promise<ReceivedCart> {
  if (DTD.test(xml)) throw new CartRefused('doctype');
  const rawItems: string[] = [];
  let doc: Node | null = null;
  try {
    doc = await readDocument(xml, budgetMs, (raw) => rawItems.push(raw));
  } catch (error) {
    if (error instanceof CartRefused) throw error;
  }
  const w = doc && root(doc);
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
  const started = performance.now();
  const positions = rawOrderItems(xml).map((raw) => {
    if (performance.now() - started > budgetMs) throw new CartRefused('timeBudget');
    const item = readSingleItem(raw);
    return item ? readItem(item, raw) : unreadable(raw);
  });
  if (!positions.length && xml.trim()) positions.push(unreadable(xml.trim().slice(0, 4000)));
  return { version: null, orderInfo: null, positions };
}
