import { CommunicationDataFormat, round2, unitCodeOf } from '@shk/contracts';
import type { OrderAddress, SupplierOrderDocument, SupplierOrderForTransmission } from '../transmission.types.ts';

/**
 * UN/EDIFACT ORDERS (D.96A / D.97A, EANCOM-style subset) in syntax UNOC (ISO 8859-1). Segment order
 * follows the message's branching diagram: header (BGM, DTM, RFF, NAD, CUX), line groups (LIN, PIA, IMD,
 * QTY, DTM, MOA, FTX, PRI, RFF), summary (UNS, MOA, CNT), trailer with the segment count.
 */

/** Release character '?' before every service character, so names and notes can contain them. */
export function escapeEdifact(value: string): string {
  return toUnoc(value).replace(/([?+:'])/g, '?$1');
}

/** UNOC is ISO 8859-1: € and typographic characters are spelled out, anything else non-Latin-1 becomes a space. */
export function toUnoc(value: string): string {
  const spelled: Record<string, string> = {
    '€': 'EUR',
    '–': '-',
    '—': '-',
    '„': '"',
    '“': '"',
    '”': '"',
    '’': "'",
    '‚': "'",
  };
  let out = '';
  for (const ch of value.replace(/[\r\n\t]+/g, ' ')) {
    if (spelled[ch]) out += spelled[ch];
    else out += ch.codePointAt(0)! <= 0xff ? ch : ' ';
  }
  return out;
}

const amount = (n: number) => round2(n).toFixed(2);
const number = (n: number) => String(Number(n.toFixed(4)));
const ymd = (iso: string) => iso.replaceAll('-', '');
const berlinDate = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(d);
/** Composite values are escaped; the element separators between them are written by `segment`. */
const segment = (...elements: (string | string[])[]) =>
  `${elements.map((e) => (Array.isArray(e) ? e.map(escapeEdifact).join(':') : escapeEdifact(e))).join('+')}'`;

/**
 * Splits a text into data elements of at most `size` characters, counted in characters of the written
 * charset (not UTF-16 units, not bytes, without release characters): nothing is cut, 'weiß' stays whole.
 * Fields end at word boundaries (the space between them is left out, as receivers trim fields); a word
 * longer than a field fills whole fields.
 */
export function textFields(value: string, size: number): string[] {
  const fields: string[] = [];
  let current: string[] = [];
  for (const word of toUnoc(value).trim().split(/ +/).filter(Boolean)) {
    let chars = Array.from(word);
    const separator = current.length ? 1 : 0;
    if (current.length + separator + chars.length <= size) {
      current.push(...(separator ? [' '] : []), ...chars);
      continue;
    }
    if (current.length) fields.push(current.join(''));
    for (; chars.length > size; chars = chars.slice(size)) fields.push(chars.slice(0, size).join(''));
    current = chars;
  }
  if (current.length) fields.push(current.join(''));
  return fields;
}

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Item description: IMD C273 has two 7008 fields (an..35); a longer name continues in further IMD segments. */
function imdSegments(name: string): string[] {
  return chunk(textFields(name, 35), 2).map((pair) => segment('IMD', 'F', '', ['', '', '', ...pair]));
}

/** Free text: FTX C108 carries five 4440 fields (an..70); a longer text continues in further FTX segments. */
function ftxSegments(subject: string, text: string): string[] {
  return chunk(textFields(text, 70), 5).map((fields) => segment('FTX', subject, '', '', fields));
}

function nad(qualifier: string, id: string | null, agency: string, a: OrderAddress) {
  const street = [a.street, a.houseNumber].filter(Boolean).join(' ');
  return segment(
    'NAD',
    qualifier,
    id ? [id, '', agency] : '',
    '',
    // C080 party name: five 3036 fields, C059 street: four 3042 fields (an..35 each)
    textFields(a.name ?? '', 35).slice(0, 5),
    textFields(street, 35).slice(0, 4),
    textFields(a.city ?? '', 35)[0] ?? '',
    '',
    a.postalCode ?? '',
    (a.countryCode ?? 'DE').slice(0, 3),
  );
}

/**
 * The UNH association assigned code (0057) names the subset the message follows. EAN008 is EANCOM 1997's
 * ORDERS, which is built on D.96A; a D.97A message follows no EANCOM version and carries none.
 */
export const ASSOCIATION_CODES: Readonly<Record<EdifactOptions['version'], string | null>> = {
  '96A': 'EAN008',
  '97A': null,
};

/** The one address all lines carry (a cart-level delivery address), or null. */
function sharedLineAddress(order: SupplierOrderForTransmission): OrderAddress | null {
  const [first] = order.lines;
  const same = (a: OrderAddress | null) => JSON.stringify(a) === JSON.stringify(first?.deliveryAddress);
  return first?.deliveryAddress && order.lines.every((l) => same(l.deliveryAddress)) ? first.deliveryAddress : null;
}

export interface EdifactOptions {
  version: '96A' | '97A';
  platformGln: string;
  now?: Date;
}

export function ordersMessage(order: SupplierOrderForTransmission, options: EdifactOptions): string {
  const now = options.now ?? new Date();
  const [date, time] = [
    berlinDate(now).slice(2).replaceAll('-', ''),
    new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' })
      .format(now)
      .replace(':', ''),
  ];
  const reference = String(order.id).padStart(10, '0');
  const association = ASSOCIATION_CODES[options.version];
  const receiver = order.supplier.gln ?? order.supplier.headquarterGln ?? order.supplier.bpNumber;
  const receiverAgency = order.supplier.gln || order.supplier.headquarterGln ? '14' : 'ZZZ';
  const body: string[] = [
    segment('UNH', '1', ['ORDERS', 'D', options.version, 'UN', ...(association ? [association] : [])]),
    segment('BGM', '220', order.supplierOrderNumber, '9'),
    segment('DTM', ['137', ymd(berlinDate(order.placedAt)), '102']),
  ];
  const dates = order.lines
    .map((l) => l.deliveryDate)
    .filter((d): d is string => !!d)
    .sort();
  if (dates.length) body.push(segment('DTM', ['2', ymd(dates[0]), '102']));
  if (order.isTest) body.push(...ftxSegments('AAI', 'Testbestellung - bitte nicht ausliefern'));
  // The buyer's note for the whole order: header FTX, 4451 PUR (purchasing information).
  if (order.orderNote) body.push(...ftxSegments('PUR', order.orderNote));
  body.push(segment('RFF', ['CO', order.customerOrderNumber]));
  // The buyer's own reference ('Kommission'): RFF 1153 CR (customer reference number); the contracts limit it to
  // 1154's an..35, so it is never cut.
  if (order.orderReference) body.push(segment('RFF', ['CR', order.orderReference]));
  body.push(
    nad(
      'BY',
      order.buyer.supplierCustomerNumber ?? order.buyer.bpNumber,
      order.buyer.supplierCustomerNumber ? '91' : '92',
      order.buyer.address,
    ),
  );
  body.push(segment('RFF', ['IT', order.buyer.supplierCustomerNumber ?? '']));
  body.push(nad('SU', order.supplier.gln ?? order.supplier.headquarterGln, '9', order.supplier.address));
  // The header NAD+DP applies to every line; a line going elsewhere names its own (SG33). Lines without an
  // address of their own go to the buyer, as the order PDF says.
  const sharedAddress = sharedLineAddress(order);
  if (sharedAddress) body.push(nad('DP', null, '', sharedAddress));
  else body.push(nad('DP', order.buyer.supplierCustomerNumber, '91', order.buyer.address));
  body.push(segment('CUX', ['2', 'EUR', '9']));
  for (const l of order.lines) {
    body.push(segment('LIN', String(l.lineNo), '', l.gtin ? [l.gtin, 'EN'] : ''));
    body.push(segment('PIA', '5', [l.articleNumber, 'SA']));
    if (l.manufacturerNumber) body.push(segment('PIA', '1', [l.manufacturerNumber, 'MF']));
    body.push(...imdSegments(l.name));
    body.push(segment('QTY', ['21', number(l.quantity), unitCodeOf(l.unitCode)]));
    if (l.deliveryDate) body.push(segment('DTM', ['2', ymd(l.deliveryDate), '102']));
    if (l.quantityPrice != null) body.push(segment('MOA', ['203', amount(l.quantityPrice)]));
    if (l.comment) body.push(...ftxSegments('LIN', l.comment));
    if (l.unitPrice != null)
      body.push(segment('PRI', ['AAA', number(l.unitPrice), '', '', number(l.priceBasis), unitCodeOf(l.unitCode)]));
    if (l.projectCode) body.push(segment('RFF', ['AEP', l.projectCode]));
    if (l.deliveryAddress && !sharedAddress) body.push(nad('DP', null, '', l.deliveryAddress));
  }
  body.push(segment('UNS', 'S'));
  body.push(segment('MOA', ['79', amount(order.netValue)]));
  body.push(segment('MOA', ['64', amount(order.deliveryCost)]));
  body.push(segment('MOA', ['86', amount(order.netValue + order.deliveryCost)]));
  body.push(segment('CNT', ['2', String(order.lines.length)]));
  body.push(segment('UNT', String(body.length + 1), '1'));
  const unb = segment(
    'UNB',
    ['UNOC', '3'],
    [options.platformGln, '14'],
    [receiver, receiverAgency],
    [date, time],
    reference,
    '',
    'ORDERS',
    '',
    '',
    '',
    order.isTest ? '1' : '',
  ).replace(/\++'$/, "'");
  return ["UNA:+.? '", unb, ...body, segment('UNZ', '1', reference)].join('\n') + '\n';
}

function edifactDocument(formatId: number, version: '96A' | '97A'): SupplierOrderDocument {
  return {
    formatId,
    async render(order, context) {
      return {
        formatId,
        fileName: `ORDERS_${order.supplierOrderNumber}.edi`,
        mediaType: 'application/EDIFACT',
        content: Buffer.from(ordersMessage(order, { version, platformGln: context.platformGln }), 'latin1'),
      };
    },
  };
}

export const edifactD96A = edifactDocument(CommunicationDataFormat.Edi_96A, '96A');
export const edifactD97A = edifactDocument(CommunicationDataFormat.Edi_97A, '97A');
