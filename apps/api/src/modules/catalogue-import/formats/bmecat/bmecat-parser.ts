/**
 * Streaming BMEcat 2005 reader (saxes): the file is decoded in 1 MB chunks in the charset of its
 * XML declaration and turned into import events; only the product being read is held in memory.
 * BMEcat 1.2 element names (ARTICLE…) are read as well, since many suppliers still send them.
 */
import { SaxesParser } from 'saxes';
import { decodedChunks, readHead, xmlDeclaredEncoding } from '../charset.ts';
import {
  berlinToday,
  emptyArticle,
  parseDecimal,
  type ImportEvent,
  type ImportedArticle,
  type ImportedName,
  type ImportedPrice,
  type ImportTransaction,
} from '../../import.types.ts';
import { catalogueImportMessages } from '@shk/contracts';
import { gtinError } from '../gtin.ts';

const TRANSACTIONS = new Set<ImportTransaction>(['T_NEW_CATALOG', 'T_UPDATE_PRODUCTS', 'T_UPDATE_PRICES']);
/** BMEcat 1.2 spellings mapped to 2005. */
const ALIASES: Record<string, string> = {
  ARTICLE: 'PRODUCT',
  SUPPLIER_AID: 'SUPPLIER_PID',
  ARTICLE_DETAILS: 'PRODUCT_DETAILS',
  ARTICLE_FEATURES: 'PRODUCT_FEATURES',
  ARTICLE_ORDER_DETAILS: 'PRODUCT_ORDER_DETAILS',
  ARTICLE_PRICE_DETAILS: 'PRODUCT_PRICE_DETAILS',
  ARTICLE_PRICE: 'PRODUCT_PRICE',
  ARTICLE_REFERENCE: 'PRODUCT_REFERENCE',
  ART_ID_TO: 'PROD_ID_TO',
  MANUFACTURER_AID: 'MANUFACTURER_PID',
  EAN: 'INTERNATIONAL_PID',
  ARTICLE_TO_CATALOGGROUP_MAP: 'PRODUCT_TO_CATALOGGROUP_MAP',
  ART_ID: 'PROD_ID',
};

interface Frame {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

/** Classification dictionary entries (BMEcat 2005 CLASSIFICATION_SYSTEM, BMEcat 1.2 FEATURE_SYSTEM) by element. */
const DICTIONARY_ENTRIES: Record<string, ImportedName['kind']> = {
  CLASSIFICATION_GROUP: 'class',
  FEATURE_GROUP: 'class',
  FEATURE_TEMPLATE: 'feature',
  ALLOWED_VALUE: 'value',
};
const ENTRY_IDS = new Set(['CLASSIFICATION_GROUP_ID', 'FEATURE_GROUP_ID', 'FT_ID', 'ALLOWED_VALUE_ID']);
const ENTRY_NAMES = new Set(['CLASSIFICATION_GROUP_NAME', 'FEATURE_GROUP_NAME', 'FT_NAME', 'ALLOWED_VALUE_NAME']);

type PriceLine = { type: string; amount: string; lower: string };

/**
 * The state of one file's read: the element stack, the product being read (only it is held in memory) and the events
 * ready to hand out. saxes calls `open` and `close`; the generator below hands the events out chunk by chunk.
 */
class BmecatReader {
  readonly out: ImportEvent[] = [];
  readonly stack: Frame[] = [];
  transaction: ImportTransaction | null = null;
  position = 0;
  product: ImportedArticle | null = null;
  features: { system: string; group: string | null; list: ImportedArticle['features'] } | null = null;
  feature: { id: string; values: string[]; unit: string | null } | null = null;
  priceBlock: { from: string | null; to: string | null; prices: PriceLine[] } | null = null;
  price: PriceLine | null = null;
  mime: ImportedArticle['media'][number] | null = null;
  reference: { type: string; target: string } | null = null;
  group: { id: string; name: string; parentId: string | null } | null = null;
  map: { pid: string; group: string } | null = null;
  dateType: string | null = null;
  blocks: ImportedPrice[] = [];
  readonly today = berlinToday();
  // Classification dictionary of the file: readable names of the ETIM classes, features and values its products name
  // by id.
  dictionary = 0;
  entry: { kind: ImportedName['kind']; id: string; name: string; german: boolean } | null = null;

  parent(depth = 1) {
    return this.stack[this.stack.length - 1 - depth]?.name;
  }
  readonly fail = (reason: string) => {
    if (this.product && !this.product.error) this.product.error = reason;
  };
  // A bad optional value: the product is imported without it (a warning, not a rejection).
  readonly warn = (reason: string) => {
    this.product?.warnings.push(catalogueImportMessages.invalidNumber(reason));
  };

  open(tag: { name: string; attributes: Record<string, unknown> }) {
    const name = localName(tag.name);
    this.stack.push({ name, attributes: tag.attributes as Record<string, string>, text: '' });
    if (TRANSACTIONS.has(name as ImportTransaction)) {
      this.transaction = name as ImportTransaction;
      this.out.push({ kind: 'header', format: 'BMEcat 2005', transaction: this.transaction });
    } else if (name === 'CLASSIFICATION_SYSTEM' || name === 'FEATURE_SYSTEM') {
      this.dictionary++;
    } else if (this.dictionary && !this.product && DICTIONARY_ENTRIES[name] && !this.entry) {
      this.entry = { kind: DICTIONARY_ENTRIES[name], id: '', name: '', german: false };
    } else if (name === 'PRODUCT' && this.transaction) {
      this.product = emptyArticle(++this.position);
      this.blocks = [];
      const mode = (tag.attributes.mode as string | undefined)?.toLowerCase();
      if (mode === 'delete' || mode === 'update' || mode === 'new') this.product.mode = mode;
    } else if (!this.product) {
      if (name === 'CATALOG_STRUCTURE') this.group = { id: '', name: '', parentId: null };
      else if (name === 'PRODUCT_TO_CATALOGGROUP_MAP') this.map = { pid: '', group: '' };
    } else if (name === 'PRODUCT_FEATURES') this.features = { system: '', group: null, list: [] };
    else if (name === 'FEATURE' && this.features) this.feature = { id: '', values: [], unit: null };
    else if (name === 'PRODUCT_PRICE_DETAILS') this.priceBlock = { from: null, to: null, prices: [] };
    else if (name === 'PRODUCT_PRICE' && this.priceBlock)
      this.price = { type: (tag.attributes.price_type as string) ?? 'net_list', amount: '', lower: '' };
    else if (name === 'DATETIME') this.dateType = (tag.attributes.type as string) ?? null;
    else if (name === 'MIME') this.mime = { source: '', type: '', description: null, purpose: null };
    else if (name === 'PRODUCT_REFERENCE')
      this.reference = { type: (tag.attributes.type as string) ?? 'others', target: '' };
  }

  text(text: string) {
    const top = this.stack[this.stack.length - 1];
    if (top) top.text += text;
  }

  close() {
    const frame = this.stack.pop()!;
    const text = frame.text.trim();
    const name = frame.name;
    if (this.dictionary && !this.product) this.closeDictionary(frame, name, text);
    else if (this.group) this.closeGroup(this.group, name, text);
    else if (this.map) this.closeMap(this.map, name, text);
    else if (this.product) this.closeProductPart(this.product, frame, name, text);
  }

  private closeDictionary(frame: Frame, name: string, text: string) {
    if (name === 'CLASSIFICATION_SYSTEM' || name === 'FEATURE_SYSTEM') this.dictionary--;
    else if (this.entry && ENTRY_IDS.has(name) && !this.entry.id) this.entry.id = text;
    else if (this.entry && ENTRY_NAMES.has(name) && text) {
      // Names in several languages: the German one wins, else the first.
      const german = /^(deu|ger|de)/i.test(frame.attributes.lang ?? '');
      if (!this.entry.name || (german && !this.entry.german)) {
        this.entry.name = text;
        this.entry.german = german;
      }
    } else if (this.entry && DICTIONARY_ENTRIES[name] === this.entry.kind && frame.name === name) {
      // FEATURE_GROUP of BMEcat 1.2 names its class by FEATURE_GROUP_ID; FT_NAME of 1.2 is the feature's name and id.
      const id = this.entry.id || (this.entry.kind === 'feature' ? this.entry.name : '');
      if (id && this.entry.name && this.entry.name !== id)
        this.out.push({ kind: 'names', names: [{ kind: this.entry.kind, id, name: this.entry.name }] });
      this.entry = null;
    }
  }

  private closeGroup(group: NonNullable<BmecatReader['group']>, name: string, text: string) {
    if (name === 'GROUP_ID') group.id = text;
    else if (name === 'GROUP_NAME') group.name = text;
    else if (name === 'PARENT_ID') group.parentId = text && text !== '0' ? text : null;
    else if (name === 'CATALOG_STRUCTURE') {
      if (group.id) this.out.push({ kind: 'group', group: { ...group, name: group.name || group.id } });
      this.group = null;
    }
  }

  private closeMap(map: NonNullable<BmecatReader['map']>, name: string, text: string) {
    if (name === 'PROD_ID') map.pid = text;
    else if (name === 'CATALOG_GROUP_ID') map.group = text;
    else if (name === 'PRODUCT_TO_CATALOGGROUP_MAP') {
      if (map.pid && map.group) this.out.push({ kind: 'groupMap', supplierPid: map.pid, groupId: map.group });
      this.map = null;
    }
  }

  private closeProductPart(p: ImportedArticle, frame: Frame, name: string, text: string) {
    const { fail, warn } = this;
    switch (name) {
      case 'SUPPLIER_PID':
        if (this.parent(0) === 'PRODUCT') p.supplierPid = text;
        break;
      case 'DESCRIPTION_SHORT':
        p.shortDescription ??= text || null;
        break;
      case 'DESCRIPTION_LONG':
        p.longDescription ??= text || null;
        break;
      case 'INTERNATIONAL_PID': {
        const type = (frame.attributes.type ?? 'gtin').toLowerCase();
        if (['gtin', 'ean'].includes(type) && text) {
          // The GTIN is an optional identifier: a wrong one costs the this.product only its GTIN.
          const problem = gtinError(text);
          if (problem) p.warnings.push(catalogueImportMessages.invalidGtin(problem));
          else p.gtin ??= text;
        }
        break;
      }
      case 'MANUFACTURER_PID':
        p.manufacturerPid = text || null;
        break;
      case 'MANUFACTURER_NAME':
        p.manufacturerName = text || null;
        break;
      case 'MANUFACTURER_TYPE_DESCR':
        p.manufacturerTypeDescr = text || null;
        break;
      case 'KEYWORD':
        if (text) p.keywords.push(text);
        break;
      case 'DELIVERY_TIME':
        p.deliveryDays = parseDecimal(text) === null ? null : Math.round(parseDecimal(text)!);
        break;
      case 'REFERENCE_FEATURE_SYSTEM_NAME':
        if (this.features) this.features.system = text;
        break;
      case 'REFERENCE_FEATURE_GROUP_ID':
        if (this.features) this.features.group = text || null;
        break;
      case 'FNAME':
        if (this.feature) this.feature.id = text;
        break;
      case 'FVALUE':
        if (this.feature) this.feature.values.push(text);
        break;
      case 'FUNIT':
        if (this.feature) this.feature.unit = text || null;
        break;
      case 'FEATURE':
        if (this.feature && this.features && this.feature.id && this.feature.values.length)
          this.features.list.push({
            id: this.feature.id,
            value: this.feature.values.join(', '),
            unit: this.feature.unit,
          });
        this.feature = null;
        break;
      case 'PRODUCT_FEATURES':
        // Only ETIM classifies into the catalogue's model; other systems (ECLASS, proprietary) are ignored.
        if (this.features && /^ETIM/i.test(this.features.system)) {
          p.etimClass = this.features.group;
          p.features.push(...this.features.list);
        }
        this.features = null;
        break;
      case 'ORDER_UNIT':
        p.orderUnit = text || null;
        break;
      case 'CONTENT_UNIT':
        p.contentUnit = text || null;
        break;
      case 'PRICE_QUANTITY':
        p.priceQuantity = positive(text, 'PRICE_QUANTITY', warn);
        break;
      case 'QUANTITY_MIN':
        p.minQuantity = positive(text, 'QUANTITY_MIN', warn);
        break;
      case 'QUANTITY_INTERVAL':
        p.interval = positive(text, 'QUANTITY_INTERVAL', warn);
        break;
      case 'DATE':
        if (this.priceBlock && this.dateType === 'valid_start_date') this.priceBlock.from = isoDate(text);
        if (this.priceBlock && this.dateType === 'valid_end_date') this.priceBlock.to = isoDate(text);
        break;
      case 'PRICE_AMOUNT':
        if (this.price) this.price.amount = text;
        break;
      case 'LOWER_BOUND':
        if (this.price) this.price.lower = text;
        break;
      case 'PRODUCT_PRICE':
        if (this.price && this.priceBlock) this.priceBlock.prices.push(this.price);
        this.price = null;
        break;
      case 'PRODUCT_PRICE_DETAILS':
        if (this.priceBlock) this.blocks.push(toPrice(this.priceBlock, fail));
        this.priceBlock = null;
        break;
      case 'MIME_SOURCE':
        if (this.mime) this.mime.source = text;
        break;
      case 'MIME_TYPE':
        if (this.mime) this.mime.type = text;
        break;
      case 'MIME_DESCR':
        if (this.mime) this.mime.description = text || null;
        break;
      case 'MIME_PURPOSE':
        if (this.mime) this.mime.purpose = text || null;
        break;
      case 'MIME':
        if (this.mime?.source) p.media.push(this.mime);
        this.mime = null;
        break;
      case 'PROD_ID_TO':
        if (this.reference) this.reference.target = text;
        break;
      case 'PRODUCT_REFERENCE':
        if (this.reference?.target) p.references.push(this.reference);
        this.reference = null;
        break;
      case 'PRODUCT':
        choosePrices(p, this.blocks, this.today);
        if (!p.supplierPid) fail('Die Artikelnummer des Lieferanten (SUPPLIER_PID) fehlt.');
        else if (this.transaction !== 'T_UPDATE_PRICES' && p.mode !== 'delete' && !p.shortDescription)
          fail('Die Kurzbeschreibung (DESCRIPTION_SHORT) fehlt.');
        this.out.push({ kind: 'article', article: p });
        this.product = null;
        break;
    }
  }
}

/** Reads a BMEcat file event by event. Malformed XML stops the file with a German error. */
export async function* readBmecat(file: string): AsyncGenerator<ImportEvent> {
  const encoding = xmlDeclaredEncoding(await readHead(file));
  const parser = new SaxesParser({ position: true });
  const reader = new BmecatReader();
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= new Error(
      `Die XML-Datei ist fehlerhaft (Zeile ${parser.line}): ${error.message.replace(/^.*?:\d+:\d+: /, '')}`,
    );
  });
  parser.on('opentag', (tag) => reader.open(tag));
  parser.on('text', (text) => reader.text(text));
  parser.on('cdata', (text) => reader.text(text));
  parser.on('closetag', () => reader.close());

  for await (const chunk of decodedChunks(file, encoding)) {
    parser.write(chunk);
    if (failure) break;
    yield* reader.out.splice(0);
  }
  if (!failure) parser.close();
  yield* reader.out.splice(0);
  if (failure) throw failure;
  if (!reader.transaction)
    throw new Error(
      'Die Datei enthält keine BMEcat-Transaktion (T_NEW_CATALOG, T_UPDATE_PRODUCTS oder T_UPDATE_PRICES).',
    );
}

function localName(name: string) {
  const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  return ALIASES[local] ?? local;
}

function positive(text: string, element: string, fail: (reason: string) => void): number | null {
  if (!text) return null;
  const n = parseDecimal(text);
  if (n === null || n <= 0) {
    fail(`${element} „${text}“ ist keine gültige positive Zahl.`);
    return null;
  }
  return n;
}

function isoDate(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  return m ? m[1] : null;
}

function toPrice(
  block: { from: string | null; to: string | null; prices: { type: string; amount: string; lower: string }[] },
  fail: (reason: string) => void,
) {
  const result = {
    net: null as number | null,
    gross: null as number | null,
    scales: [] as { from: number; price: number }[],
    validFrom: block.from,
    validTo: block.to,
  };
  for (const p of block.prices) {
    const amount = parseDecimal(p.amount);
    if (amount === null || amount < 0) {
      fail(`Der Preis „${p.amount}“ ist keine gültige Zahl.`);
      continue;
    }
    const lower = parseDecimal(p.lower) ?? 1;
    if (p.type === 'net_list' || p.type === 'net_customer') {
      if (lower <= 1) result.net ??= amount;
      else result.scales.push({ from: lower, price: amount });
    } else if (p.type === 'nrp' || p.type === 'gros_list') {
      if (lower <= 1) result.gross ??= amount;
    }
  }
  result.scales.sort((a, b) => a.from - b.from);
  return result;
}

/**
 * The block valid today (Europe/Berlin) becomes the offer's price; blocks starting later are kept
 * apart (futurePrices) and must not replace today's price before their date. Of several blocks that
 * have begun, the one still valid with the latest start wins; if all have expired, the first one
 * (as suppliers list the current block first).
 */
function choosePrices(p: ImportedArticle, blocks: ImportedPrice[], today: string) {
  const begun = blocks.filter((b) => !b.validFrom || b.validFrom <= today);
  const valid = begun.filter((b) => !b.validTo || b.validTo >= today);
  p.price =
    valid.reduce<ImportedPrice | null>(
      (best, b) => (!best || (b.validFrom ?? '') > (best.validFrom ?? '') ? b : best),
      null,
    ) ??
    begun[0] ??
    null;
  p.futurePrices = blocks
    .filter((b) => b.validFrom && b.validFrom > today)
    .sort((a, b) => (a.validFrom! < b.validFrom! ? -1 : 1));
}
