import type { FastifyRequest } from 'fastify';

/** The norm's call parameters (section 5.8) after alias resolution; values as received. */
export interface IdsFields {
  action?: string;
  kndnr?: string;
  name_kunde?: string;
  pw_kunde?: string;
  warenkorb?: string;
  hookurl?: string;
  ghnummer?: string;
  version?: string;
  target?: string;
  searchterm?: string;
  artikelnr?: string;
}

/**
 * Names real craftsman programs send instead of the norm's (docs/ids.md lists them). Field names are
 * compared case-insensitively, so HOOKURL or Version need no entry here.
 */
const ALIASES: Record<string, keyof IdsFields> = {
  aktion: 'action',
  aktionscode: 'action',
  kdnr: 'kndnr',
  kundennummer: 'kndnr',
  kundennr: 'kndnr',
  customerno: 'kndnr',
  benutzername: 'name_kunde',
  benutzer: 'name_kunde',
  username: 'name_kunde',
  user: 'name_kunde',
  login: 'name_kunde',
  passwort: 'pw_kunde',
  password: 'pw_kunde',
  kennwort: 'pw_kunde',
  pw: 'pw_kunde',
  basket: 'warenkorb',
  cart: 'warenkorb',
  hook_url: 'hookurl',
  returnurl: 'hookurl',
  rueckgabeurl: 'hookurl',
  suchbegriff: 'searchterm',
  search: 'searchterm',
  suchtext: 'searchterm',
  ghartikelnr: 'ghnummer',
  gh_nummer: 'ghnummer',
  artikelnummer: 'artikelnr',
  artnr: 'artikelnr',
  frame: 'target',
};

const KNOWN = new Set<string>([
  'action',
  'kndnr',
  'name_kunde',
  'pw_kunde',
  'warenkorb',
  'hookurl',
  'ghnummer',
  'version',
  'target',
  'searchterm',
  'artikelnr',
]);

export function canonicalName(name: string): keyof IdsFields | null {
  const lower = name.trim().toLowerCase();
  if (KNOWN.has(lower)) return lower as keyof IdsFields;
  return ALIASES[lower] ?? null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/** Form fields are UTF-8 unless the request says otherwise; bytes that are not UTF-8 are read as Latin-1. */
function decodeField(bytes: Buffer, charset: string | null): string {
  if (charset && /^(iso-8859-1|latin1|windows-1252|cp1252)$/i.test(charset)) return latin1.decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/**
 * The cart's encoding is the one of its XML declaration (norm 5.x: "Der Zeichensatz der xml Struktur
 * … in der xml Deklaration", default UTF-8). Programs that declare ISO-8859-1 but send a form in
 * UTF-8 exist: bytes that are valid UTF-8 with multi-byte characters are read as UTF-8 then.
 */
export function decodeCart(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? null;
  const text = decodeField(
    bytes,
    declared && /8859|latin|1252/i.test(declared) && !isMultiByteUtf8(bytes) ? declared : null,
  );
  return unescapeHtmlCart(text.replace(/^\uFEFF/, ''));
}

function isMultiByteUtf8(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
  } catch {
    return false;
  }
  return bytes.some((b) => b > 0x7f);
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', nbsp: '\u00a0' };

/** Some programs put the cart HTML-escaped into the form field (&lt;?xml …); only then is it unescaped. */
export function unescapeHtmlCart(value: string): string {
  const trimmed = value.trim();
  if (!/^&lt;(\?xml|[\w:]*Warenkorb)/i.test(trimmed)) return trimmed;
  return trimmed.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Percent-decoding to bytes (not to UTF-8 text), so a Latin-1 cart survives until its declaration is read. */
function percentBytes(s: string): Buffer {
  return Buffer.from(
    s.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
}

function charsetOf(contentType: string | undefined): string | null {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? null;
}

function assign(fields: IdsFields, name: string, bytes: Buffer, charset: string | null) {
  if (bytes.length > IDS_MAX_PART_BYTES) throw new IdsFieldTooLarge(name);
  const key = canonicalName(name);
  if (!key || fields[key] !== undefined) return;
  fields[key] = key === 'warenkorb' ? decodeCart(bytes) : decodeField(bytes, charset).trim();
}

/** Fields of application/x-www-form-urlencoded bodies and query strings, from their raw bytes. */
export function readUrlEncoded(raw: Buffer | string, charset: string | null, fields: IdsFields = {}): IdsFields {
  const s = typeof raw === 'string' ? raw : raw.toString('latin1');
  for (const pair of s.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = percentBytes(eq < 0 ? pair : pair.slice(0, eq)).toString('latin1');
    assign(fields, name, percentBytes(eq < 0 ? '' : pair.slice(eq + 1)), charset);
  }
  return fields;
}

/** Largest field or file of an IDS entry request. */
export const IDS_MAX_PART_BYTES = 10 * 1024 * 1024;

/** A multipart field above IDS_MAX_PART_BYTES: refused (413), never stored cut short. */
export class IdsFieldTooLarge extends Error {
  constructor(readonly field: string) {
    super(`IDS field ${field} exceeds ${IDS_MAX_PART_BYTES} bytes`);
  }
}

/** The hook URL must be a web address: the return page posts the cart there (no javascript:, data: …). */
export function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Reads the entry request: multipart/form-data, urlencoded body, and the query string (GET). */
export async function readIdsFields(request: FastifyRequest): Promise<IdsFields> {
  const fields: IdsFields = {};
  const contentType = request.headers['content-type'] ?? '';
  const charset = charsetOf(contentType);
  if (request.method === 'POST' && /multipart\/form-data/i.test(contentType)) {
    // Busboy decodes fields without a charset as Latin-1 here, which keeps their bytes recoverable.
    // A cart (warenkorb) is the only file: the same 10 MB as a field, enforced while busboy streams it
    // (FST_REQ_FILE_TOO_LARGE → 413 problem), never the app-wide 100 MB.
    const limits = { fieldSize: IDS_MAX_PART_BYTES, fileSize: IDS_MAX_PART_BYTES, files: 2 };
    for await (const part of request.parts({ defCharset: 'latin1', limits })) {
      if (part.type === 'file') {
        assign(fields, part.fieldname, await part.toBuffer(), charsetOf(part.mimetype));
      } else {
        // Busboy cuts a field at fieldSize and only says so in valueTruncated.
        if (part.valueTruncated) throw new IdsFieldTooLarge(part.fieldname);
        const partCharset = charsetOf(part.mimetype);
        const value = String(part.value ?? '');
        const bytes = partCharset ? Buffer.from(value, 'utf8') : Buffer.from(value, 'latin1');
        assign(fields, part.fieldname, bytes, partCharset ? 'utf-8' : charset);
      }
    }
  } else if (request.method === 'POST' && Buffer.isBuffer(request.body)) {
    readUrlEncoded(request.body, charset, fields);
  }
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0) readUrlEncoded(url.slice(q + 1), null, fields);
  return fields;
}
