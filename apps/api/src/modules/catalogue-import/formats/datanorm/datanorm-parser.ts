/**
 * DATANORM 4 and 5 reader: semicolon records, one per line (A/B article, P price, D article text,
 * T text blocks, S article groups). Records of one article can be spread over the file (texts and
 * prices often come in their own sections), so articles are collected by number first and
 * emitted at the end; the file itself is read line by line. Field layout: docs/catalogue-import.md.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import iconv from 'iconv-lite';
import { readHead } from '../charset.ts';
import { catalogueImportMessages } from '@shk/contracts';
import { gtinError } from '../gtin.ts';
import {
  emptyArticle,
  parseDecimal,
  type ImportEvent,
  type ImportFormat,
  type ImportedArticle,
  type ImportedGroup,
  type ImportTransaction,
} from '../../import.types.ts';

/** Whether the file starts like DATANORM (a V header record, or directly with an A record). */
export function looksLikeDatanorm(head: Buffer): boolean {
  const first = head.toString('latin1').split(/\r?\n/, 1)[0];
  return /^V[ ;]/.test(first) || /^[AB];[NALDX];/.test(first);
}

/**
 * DATANORM has no charset declaration: UTF-8 when the bytes are valid UTF-8, else code page 850
 * (DOS, classic DATANORM 4) or ISO-8859-1, whichever explains the umlaut bytes better.
 */
export function datanormEncoding(head: Buffer): string {
  if (!head.some((b) => b >= 0x80)) return 'latin1';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastCompleteUtf8(head)));
    return 'utf-8';
  } catch {
    let cp850 = 0;
    let latin1 = 0;
    for (const b of head) {
      if ([0x84, 0x94, 0x81, 0x8e, 0x99, 0x9a, 0xe1].includes(b)) cp850++;
      if ([0xe4, 0xf6, 0xfc, 0xc4, 0xd6, 0xdc, 0xdf].includes(b)) latin1++;
    }
    return cp850 > latin1 ? 'cp850' : 'latin1';
  }
}

function lastCompleteUtf8(buffer: Buffer) {
  const end = buffer.length;
  for (let k = 1; k <= 3 && end - k >= 0; k++) {
    const b = buffer[end - k];
    if ((b & 0xc0) === 0xc0) return end - k;
    if ((b & 0x80) === 0) return end;
  }
  return end;
}

const DELETE_MODES = new Set(['L', 'D', 'X']);
const PRICE_UNITS: Record<string, number> = { '0': 1, '1': 10, '2': 100, '3': 1000 };

export async function* readDatanorm(file: string): AsyncGenerator<ImportEvent> {
  const head = await readHead(file, 65536);
  const encoding = datanormEncoding(head);
  const firstLine = head.toString('latin1').split(/\r?\n/, 1)[0];
  const version: ImportFormat = /^V;0?5/.test(firstLine) || /;050;/.test(firstLine) ? 'DATANORM 5' : 'DATANORM 4';
  const articles = new Map<string, ImportedArticle>();
  const texts = new Map<string, string[]>();
  const textKeys = new Map<string, string>();
  const groups: ImportedGroup[] = [];
  let onlyNew = true;
  let onlyPrices = true;
  let lineNo = 0;

  const article = (pid: string) => {
    let a = articles.get(pid);
    if (!a) {
      a = emptyArticle(lineNo);
      a.supplierPid = pid;
      articles.set(pid, a);
    }
    return a;
  };

  const input = fs.createReadStream(file).pipe(iconv.decodeStream(encoding));
  for await (const raw of readline.createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    // DOS end-of-file marker (Ctrl-Z) after the last record
    const line = raw.split(String.fromCharCode(0x1a)).join('').trimEnd();
    if (!line) continue;
    const f = line.split(';').map((x) => x.trim());
    const type = f[0];
    const mode = (f[1] ?? 'N').toUpperCase();
    if (type === 'A') {
      onlyPrices = false;
      if (mode !== 'N') onlyNew = false;
      const pid = f[2];
      if (!pid) {
        const broken = emptyArticle(lineNo);
        broken.supplierPid = `Zeile ${lineNo}`;
        broken.error = 'Die Artikelnummer im A-Satz fehlt.';
        articles.set(broken.supplierPid, broken);
        continue;
      }
      const a = article(pid);
      a.position = lineNo;
      if (DELETE_MODES.has(mode)) {
        a.mode = 'delete';
        continue;
      }
      a.mode = mode === 'N' ? 'new' : 'update';
      a.shortDescription = [f[4], f[5]].filter(Boolean).join(' ') || null;
      if (!a.shortDescription) a.error = 'Der Kurztext im A-Satz fehlt.';
      a.orderUnit = unitOf(f[8]);
      const amount = parsePrice(f[9]);
      if (f[9] && amount === null) a.error = `Der Preis „${f[9]}“ ist keine gültige Zahl.`;
      a.priceQuantity = PRICE_UNITS[f[7] ?? '0'] ?? 1;
      a.price = setPrice(a.price, f[6], amount);
      if (f[11]) a.groupIds = [f[11]];
      if (f[12]) textKeys.set(pid, f[12]);
    } else if (type === 'B') {
      onlyPrices = false;
      const pid = f[2];
      if (!pid) continue;
      const a = article(pid);
      if (f[8] && !/^0*$/.test(f[8])) {
        // The EAN is an optional identifier: a wrong one costs the article only its EAN.
        const problem = gtinError(f[8]);
        if (problem) a.warnings.push(catalogueImportMessages.invalidGtin(problem));
        else a.gtin = f[8];
      }
      if (f[10] && !a.groupIds.length) a.groupIds = [f[10]];
      const packing = parseDecimal(f[12]);
      if (packing && packing > 0) a.minQuantity = packing;
      if (f[13]) a.manufacturerPid = f[13];
      if (f[14]) a.manufacturerName = f[14];
      if (f[3]) a.keywords.push(f[3]);
    } else if (type === 'P') {
      // DATANORM 4 packs up to three articles into one P record (9 fields each); DATANORM 5 one.
      const width = version === 'DATANORM 4' ? 9 : f.length - 2;
      for (let k = 2; k + 2 < f.length; k += Math.max(3, width)) {
        const pid = f[k];
        if (!pid) continue;
        const a = article(pid);
        const amount = parsePrice(f[k + 2]);
        if (amount === null) a.error = `Der Preis „${f[k + 2]}“ ist keine gültige Zahl.`;
        else a.price = setPrice(a.price, f[k + 1], amount);
      }
    } else if (type === 'D') {
      onlyPrices = false;
      const pid = f[2];
      if (!pid) continue;
      const a = article(pid);
      const text = f.slice(4).filter(Boolean).join(' ');
      if (text) a.longDescription = a.longDescription ? `${a.longDescription}\n${text}` : text;
    } else if (type === 'T') {
      onlyPrices = false;
      const key = f[2];
      const text = f.slice(4).filter(Boolean).join(' ');
      if (key && text) texts.set(key, [...(texts.get(key) ?? []), text]);
    } else if (type === 'S') {
      const [, , main, sub, name] = f;
      if (main && !sub) groups.push({ id: main, name: name || main, parentId: null });
      else if (sub) groups.push({ id: sub, name: name || sub, parentId: main || null });
    }
  }

  const transaction: ImportTransaction = onlyPrices
    ? 'T_UPDATE_PRICES'
    : onlyNew
      ? 'T_NEW_CATALOG'
      : 'T_UPDATE_PRODUCTS';
  yield { kind: 'header', format: version, transaction };
  for (const g of groups) yield { kind: 'group', group: g };
  const ordered = [...articles.values()].sort((a, b) => a.position - b.position);
  for (const a of ordered) {
    const key = textKeys.get(a.supplierPid);
    if (key && texts.has(key) && !a.longDescription) a.longDescription = texts.get(key)!.join('\n');
    if (transaction !== 'T_UPDATE_PRICES' && a.mode !== 'delete' && !a.shortDescription && !a.error)
      a.error = 'Zu dieser Artikelnummer fehlt der A-Satz.';
    yield { kind: 'article', article: a };
  }
}

/** DATANORM prices are whole cents unless written with a decimal separator. */
function parsePrice(text: string | undefined): number | null {
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) / 100;
  return parseDecimal(text);
}

function setPrice(current: ImportedArticle['price'], flag: string | undefined, amount: number | null) {
  const price = current ?? { net: null, gross: null, scales: [], validFrom: null, validTo: null };
  if (amount === null) return price;
  // Preiskennzeichen 1 = Bruttopreis (gross list), 2 = Nettopreis.
  if (flag === '1') price.gross = amount;
  else price.net = amount;
  return price;
}

const UNIT_CODES: Record<string, string> = {
  STK: 'C62',
  STCK: 'C62',
  ST: 'C62',
  STÜCK: 'C62',
  M: 'MTR',
  MTR: 'MTR',
  M2: 'MTK',
  QM: 'MTK',
  M3: 'MTQ',
  L: 'LTR',
  KG: 'KGM',
  PAAR: 'PR',
  PAA: 'PR',
  SATZ: 'SET',
  SET: 'SET',
  PAK: 'PK',
  PKG: 'PK',
  ROL: 'RO',
  ROLLE: 'RO',
  KAR: 'CT',
};

/** DATANORM units are free text (Stck, m, Paar); the portal uses UN/ECE codes. */
function unitOf(text: string | undefined): string | null {
  if (!text) return null;
  return UNIT_CODES[text.toUpperCase().replace(/\.$/, '')] ?? text.toUpperCase();
}
