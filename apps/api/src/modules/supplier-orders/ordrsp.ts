import iconv from 'iconv-lite';
import { Parser, Validator } from 'edifact';
import serviceSegments from 'edifact/segments.js';
import serviceElements from 'edifact/elements.js';
import { SupplierOrderStatus, type ConfirmationBody } from '@shk/contracts';

type Segment = { name: string; elements: string[][] };

/** Removes control characters (a reason is shown to staff and stored; file content must not smuggle any in). */
export function withoutControlCharacters(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

export class OrdrspError extends Error {
  constructor(message: string) {
    super(withoutControlCharacters(message));
  }
}

/**
 * The character sets of the UNB syntax identifier (0001) and how their bytes are read. The decoded text is
 * checked against the repertoire the `edifact` tokenizer knows for it (UNOA/UNOB/UNOC as such, every other
 * set, once decoded to Unicode, as UNOY).
 */
const SYNTAX_CHARSETS: Readonly<Record<string, { encoding: string; level: string }>> = {
  UNOA: { encoding: 'latin1', level: 'UNOA' },
  UNOB: { encoding: 'latin1', level: 'UNOB' },
  UNOC: { encoding: 'latin1', level: 'UNOC' },
  UNOD: { encoding: 'iso-8859-2', level: 'UNOY' },
  UNOE: { encoding: 'iso-8859-5', level: 'UNOY' },
  UNOF: { encoding: 'iso-8859-7', level: 'UNOY' },
  UNOG: { encoding: 'iso-8859-3', level: 'UNOY' },
  UNOH: { encoding: 'iso-8859-4', level: 'UNOY' },
  UNOI: { encoding: 'iso-8859-6', level: 'UNOY' },
  UNOJ: { encoding: 'iso-8859-8', level: 'UNOY' },
  UNOK: { encoding: 'iso-8859-9', level: 'UNOY' },
  // ISO 10646 (syntax version 4): UNOW is UTF-8, UNOY UTF-8 with code extension, which EDIFACT files do not use
  UNOW: { encoding: 'utf-8', level: 'UNOY' },
  UNOY: { encoding: 'utf-8', level: 'UNOY' },
};

/** The syntax identifier of the UNB (S001/0001), read in ASCII, which every set shares; UNOC without a UNB. */
function syntaxIdentifier(head: string): string {
  return /UNB[^A-Za-z0-9\s]\s*(UNO[A-Z])/.exec(head)?.[1] ?? 'UNOC';
}

function charsetOf(identifier: string) {
  const charset = SYNTAX_CHARSETS[identifier];
  if (!charset) throw new OrdrspError(`Zeichensatz ${identifier} wird nicht unterstützt.`);
  return charset;
}

/** Bytes → text by the interchange's own syntax identifier (UNB S001/0001). */
export function decodeEdifact(bytes: Buffer): { text: string; level: string } {
  const identifier = syntaxIdentifier(bytes.subarray(0, 512).toString('latin1'));
  const charset = charsetOf(identifier);
  if (charset.encoding === 'latin1') return { text: bytes.toString('latin1'), level: charset.level };
  if (charset.encoding === 'utf-8') {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), level: charset.level };
    } catch {
      throw new OrdrspError(`Die Datei ist nicht in ${identifier} (UTF-8) kodiert.`);
    }
  }
  return { text: iconv.decode(bytes, charset.encoding), level: charset.level };
}

/** The library's English tokenizer messages in German (they reach staff as the stored reason). */
function germanSyntaxError(message: string): string {
  const invalid = /^Invalid character .* at position (\d+)/s.exec(message);
  if (invalid) return `Ungültiges Zeichen an Position ${invalid[1]}`;
  return message;
}

/** Tokenising is the npm `edifact` parser's, at the character level the interchange names. */
function tokenize(text: string, level: string): Segment[] {
  const validator = new Validator();
  validator.define(serviceSegments);
  validator.define(serviceElements);
  const parser = new Parser(validator);
  parser.encoding(level);
  const segments: Segment[] = [];
  let elements: string[][] = [];
  let components: string[] = [];
  parser.onopensegment = (name) => segments.push({ name, elements: (elements = []) });
  parser.onelement = () => elements.push((components = []));
  parser.oncomponent = (value) => components.push(value);
  parser.write(text);
  parser.end();
  return segments;
}

export interface ParsedOrdrsp {
  orderNumber: string;
  statusId: number;
  body: ConfirmationBody;
  /** BGM 27 (not accepted): the supplier rejects the whole order; every ordered line is removed when applied. */
  rejectsOrder?: boolean;
}

/** CCYYMMDD (format 102) → ISO date; other formats are not used for delivery dates. */
function isoDate(value: string | undefined, format: string | undefined): string | undefined {
  if (!value) return undefined;
  if ((format ?? '102') !== '102' || !/^\d{8}$/.test(value)) throw new OrdrspError(`Ungültiges Datum: ${value}`);
  return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
}

function decimal(value: string | undefined, what: string): number | undefined {
  if (value == null || value === '') return undefined;
  const n = Number(value.replace(',', '.'));
  if (!Number.isFinite(n) || n < 0) throw new OrdrspError(`Ungültiger Wert für ${what}: ${value}`);
  return n;
}

/**
 * Continues an item description over 7008 fields (an..35). A field filled to its 35 characters was cut inside
 * a word and continues directly; a shorter one ended at a word boundary, so a space follows it.
 */
function joinDescription(group: { name?: string; lastField?: string }, fields: string[]): string {
  let text = group.name ?? '';
  for (const field of fields.filter(Boolean)) {
    const cutInWord = Array.from(group.lastField ?? '').length >= 35;
    text += text && !cutInWord ? ` ${field}` : field;
    group.lastField = field;
  }
  return text;
}

interface LineGroup {
  lineNo: number;
  action: string;
  articleNumber: string | undefined;
  /** The GTIN of LIN C212 (7143 'EN' or 'SRV'), as EANCOM partners identify a line. */
  gtin: string | undefined;
  name?: string;
  /** The last 7008 field read, to tell a continued word from a new one. */
  lastField?: string;
  quantity?: number;
  unitPrice?: number;
  deliveryDate?: string;
}

/**
 * Reads an ORDRSP (D.96A / D.97A) into the portal's confirmation: the order is found by RFF+ON,
 * each LIN refers to the ordered line by its line number (1082) with action code 1229:
 * 5 accepted, 3/6 changed (a different item number in LIN/PIA means a replacement), 7 not accepted
 * (removed), 1 added. QTY 21/113, PRI AAA/AAB, DTM 2/69 (format 102) carry the confirmed values.
 * Tokenising is the npm `edifact` reader's; anything unexpected throws an OrdrspError (nothing applied).
 */
export function parseOrdrsp(input: Buffer | string): ParsedOrdrsp {
  let segments: Segment[];
  const { text, level } =
    typeof input === 'string' ? { text: input, level: charsetOf(syntaxIdentifier(input)).level } : decodeEdifact(input);
  try {
    segments = tokenize(text, level);
  } catch (error) {
    throw new OrdrspError(
      `Die Datei ist keine gültige EDIFACT-Nachricht: ${germanSyntaxError((error as Error).message)}`,
    );
  }
  const unh = segments.find((s) => s.name === 'UNH');
  const type = unh?.elements[1];
  if (!type || type[0] !== 'ORDRSP' || type[1] !== 'D' || !['96A', '97A'].includes(type[2]))
    throw new OrdrspError('Keine ORDRSP-Nachricht (D.96A/D.97A).');
  const bgm = segments.find((s) => s.name === 'BGM');
  if (!bgm) throw new OrdrspError('BGM-Segment fehlt.');
  const orderNumber = segments.find((s) => s.name === 'RFF' && s.elements[0][0] === 'ON')?.elements[0][1];
  if (!orderNumber) throw new OrdrspError('Bestellnummer (RFF+ON) fehlt.');
  if (bgm.elements[2]?.[0] === '27')
    return {
      orderNumber,
      statusId: SupplierOrderStatus.ConfirmedWithChanges,
      body: { lines: [], addedLines: [] },
      rejectsOrder: true,
    };

  const groups: LineGroup[] = [];
  let current: LineGroup | null = null;
  for (const s of segments) {
    if (s.name === 'LIN') {
      const lineNo = Number(s.elements[0]?.[0]);
      if (!Number.isInteger(lineNo) || lineNo <= 0)
        throw new OrdrspError(`Ungültige Positionsnummer: ${s.elements[0]?.[0]}`);
      const [itemNumber, itemType] = s.elements[2] ?? [];
      const isGtin = !!itemNumber && ['EN', 'SRV'].includes(itemType ?? '');
      current = {
        lineNo,
        action: s.elements[1]?.[0] || '5',
        articleNumber: isGtin ? undefined : itemNumber || undefined,
        gtin: isGtin ? itemNumber : undefined,
      };
      groups.push(current);
    } else if (s.name === 'UNS') current = null;
    else if (!current) continue;
    else if (s.name === 'PIA' && ['1', '5'].includes(s.elements[0]?.[0]) && s.elements[1]?.[0])
      current.articleNumber = s.elements[1][0];
    // A long name continues in the second 7008 field of C273 and in further IMD segments.
    else if (s.name === 'IMD') current.name = joinDescription(current, (s.elements[2] ?? []).slice(3, 5));
    else if (s.name === 'QTY' && ['21', '113'].includes(s.elements[0][0]))
      current.quantity = decimal(s.elements[0][1], 'Menge');
    else if (s.name === 'PRI' && ['AAA', 'AAB'].includes(s.elements[0][0]))
      current.unitPrice = decimal(s.elements[0][1], 'Preis');
    else if (s.name === 'DTM' && ['2', '69'].includes(s.elements[0][0]))
      current.deliveryDate = isoDate(s.elements[0][1], s.elements[0][2]);
  }

  const body: ConfirmationBody = { lines: [], addedLines: [] };
  for (const g of groups) {
    if (g.action === '5') continue;
    if (g.action === '7') body.lines.push({ lineNo: g.lineNo, removed: true });
    else if (g.action === '1') {
      const article = g.articleNumber ?? g.gtin;
      if (!article || !g.quantity) throw new OrdrspError(`Hinzugefügte Position ${g.lineNo} ohne Artikel oder Menge.`);
      body.addedLines.push({
        articleNumber: article,
        name: g.name || article,
        quantity: g.quantity,
        unitPrice: g.unitPrice ?? null,
        deliveryDate: g.deliveryDate,
      });
    } else if (g.action === '3' || g.action === '6')
      body.lines.push({
        lineNo: g.lineNo,
        quantity: g.quantity || undefined,
        unitPrice: g.unitPrice,
        deliveryDate: g.deliveryDate,
        // The replacement is recognised against the ordered article (number or GTIN) when the line is applied.
        ...(g.articleNumber || g.gtin
          ? {
              replacement: {
                articleNumber: g.articleNumber ?? g.gtin!,
                ...(g.gtin ? { gtin: g.gtin } : {}),
                name: g.name || g.articleNumber || g.gtin!,
              },
            }
          : {}),
      });
    else throw new OrdrspError(`Unbekannter Aktionscode ${g.action} in Position ${g.lineNo}.`);
  }
  const statusId =
    body.lines.length || body.addedLines.length
      ? SupplierOrderStatus.ConfirmedWithChanges
      : SupplierOrderStatus.Confirmed;
  return { orderNumber, statusId, body };
}
