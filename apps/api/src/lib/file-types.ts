import { readFile } from 'node:fs/promises';
import { chunksOf, readRange } from './uploads/spooled-upload.ts';

/**
 * Checks that a file's content matches its extension (a renamed .exe is not a PDF).
 * Office files are containers: xlsx is a ZIP, xls an OLE2 compound file.
 */
const ZIP = (b: Buffer) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
const OLE2 = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));

/** Markup a browser would render as a page: never inside a file that claims to be data. */
const HTML_MARKERS =
  /<\s*(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|script[\s>]|iframe[\s>]|svg[\s>]|object[\s>]|embed[\s>]|meta[\s>])|javascript:/i;

/** A PDF ends with %%EOF; anything but whitespace after the last one (an appended HTML page) is refused. */
function isCleanPdf(b: Buffer): boolean {
  if (b.subarray(0, 5).toString('latin1') !== '%PDF-') return false;
  const eof = b.lastIndexOf('%%EOF');
  if (eof < 0) return false;
  return /^[\s\0]*$/.test(b.subarray(eof + 5).toString('latin1'));
}

/** Plain text data: no NUL bytes, no markup (an HTML page renamed .csv). */
function isPlainText(b: Buffer): boolean {
  if (b.length === 0 || b.includes(0)) return false;
  return !HTML_MARKERS.test(b.toString('latin1'));
}

/** An Office Open XML workbook is a ZIP that names its workbook part. */
const isXlsx = (b: Buffer) => ZIP(b) && b.includes('[Content_Types].xml') && b.includes('xl/');

const signatures: Record<string, (b: Buffer) => boolean> = {
  pdf: isCleanPdf,
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  xlsx: isXlsx,
  xls: OLE2,
  docx: (b) => ZIP(b) && b.includes('[Content_Types].xml') && b.includes('word/'),
  doc: OLE2,
  gif: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
  csv: isPlainText,
  txt: isPlainText,
  svg: (b) =>
    /<svg[\s>]/i.test(b.subarray(0, 2048).toString('utf8')) &&
    !/<script|javascript:|\bon\w+\s*=/i.test(b.toString('utf8')),
};

/** What file-type (magic numbers) must report for each binary extension. */
const detectedAs: Record<string, string[]> = {
  pdf: ['pdf'],
  png: ['png'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  xlsx: ['xlsx', 'zip'],
  xls: ['cfb', 'xls'],
  docx: ['docx', 'zip'],
  doc: ['cfb', 'doc'],
  gif: ['gif'],
};

export const contentTypes: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  svg: 'image/svg+xml',
};

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * True when the extension is allowed and the bytes are that type: magic numbers plus a structural
 * check (a PDF must end at its %%EOF, text must not be markup, a workbook must name its parts).
 * Unknown extensions are refused: an allowed list naming one needs a check here first.
 */
export function isAcceptedFile(fileName: string, content: Buffer, allowedExtensions: string[]): boolean {
  const ext = extensionOf(fileName);
  if (!ext || !allowedExtensions.includes(ext)) return false;
  const check = signatures[ext];
  return check ? check(content) : false;
}

/** Whether the content of files with this extension can be checked (magic numbers and structure). */
export const hasContentCheck = (fileName: string) => extensionOf(fileName) in signatures;

/**
 * isAcceptedFile plus the `file-type` library's detection from the magic numbers: the two must agree.
 * Text types have no magic number; file-type must then find no binary format in them either.
 */
export async function verifyFileContent(fileName: string, content: Buffer, allowedExtensions: string[]) {
  if (!isAcceptedFile(fileName, content, allowedExtensions)) return false;
  const { fileTypeFromBuffer } = await import('file-type');
  return agreesWithDetection(extensionOf(fileName), await fileTypeFromBuffer(content));
}

/** Whether file-type's finding fits the extension. */
function agreesWithDetection(ext: string, detected: { ext: string } | undefined) {
  const expected = detectedAs[ext];
  if (expected) return detected !== undefined && expected.includes(detected.ext);
  // csv, txt, svg: text formats; a detected binary or markup format means the name lies.
  return detected === undefined || (ext === 'svg' && detected.ext === 'svg') || detected.ext === 'xml';
}

/** Bidirectional overrides and invisible marks: they make "rechnung\u202Efdp.exe" look like a PDF. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u061C\uFEFF]/g;

/**
 * File names are stored as given, cleaned: no path parts, no control, bidi or invisible characters,
 * no leading dots (hidden files), at most 200 characters keeping the extension.
 */
export function cleanFileName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    .replace(/\p{Cc}/gu, '')
    .replace(INVISIBLE, '')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '')
    .replace(/["<>:|?*]/g, '_');
  if (!base) return 'datei';
  if (base.length <= 200) return base;
  const ext = extensionOf(base);
  return ext && ext.length < 10 ? `${base.slice(0, 199 - ext.length)}.${ext}` : base.slice(0, 200);
}

/**
 * isAcceptedFile for a file on disk (an upload spooled by lib/uploads/spooled-upload.ts), with the same verdict
 * without reading the file into memory: magic numbers from its first bytes, the PDF's end from its last ones, text
 * and workbook parts scanned chunk by chunk. SVG alone is read whole: its check is a pattern over the whole text.
 */
export async function isAcceptedFileAt(
  fileName: string,
  file: { path: string; size: number },
  allowedExtensions: string[],
): Promise<boolean> {
  const ext = extensionOf(fileName);
  if (!ext || !allowedExtensions.includes(ext) || !(ext in signatures)) return false;
  if (ext === 'pdf') return isCleanPdfAt(file);
  if (ext === 'csv' || ext === 'txt') return isPlainTextAt(file);
  if (ext === 'xlsx' || ext === 'docx') {
    const part = ext === 'xlsx' ? 'xl/' : 'word/';
    return ZIP(await readRange(file.path, 0, 4)) && includesAll(file.path, ['[Content_Types].xml', part]);
  }
  if (ext === 'svg') return signatures.svg(await readFile(file.path));
  // The rest look at their first 8 bytes only.
  return signatures[ext](await readRange(file.path, 0, 16));
}

/** verifyFileContent for a file on disk: isAcceptedFileAt plus file-type's detection from the file. */
export async function verifyFileContentAt(
  fileName: string,
  file: { path: string; size: number },
  allowedExtensions: string[],
) {
  if (!(await isAcceptedFileAt(fileName, file, allowedExtensions))) return false;
  const { fileTypeFromFile } = await import('file-type');
  return agreesWithDetection(extensionOf(fileName), await fileTypeFromFile(file.path));
}

/** Whitespace as /\s/ and \0 know it, among ISO-8859-1 bytes. */
const PDF_TRAILING = new Set([0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);

/**
 * isCleanPdf from the file's ends: the last byte that is no whitespace must close a %%EOF (then that is the last
 * %%EOF and only whitespace follows it); anything else means there is no %%EOF or something after the last one.
 */
async function isCleanPdfAt(file: { path: string; size: number }) {
  if ((await readRange(file.path, 0, 5)).toString('latin1') !== '%PDF-') return false;
  const block = 64 * 1024;
  for (let end = file.size; end > 0; end -= block) {
    const start = Math.max(0, end - block);
    const bytes = await readRange(file.path, start, end - start);
    for (let i = bytes.length - 1; i >= 0; i--) {
      if (PDF_TRAILING.has(bytes[i])) continue;
      const last = start + i;
      return last >= 4 && (await readRange(file.path, last - 4, 5)).toString('latin1') === '%%EOF';
    }
  }
  return false;
}

/**
 * isPlainText chunk by chunk. A marker that runs on into the next chunk starts in the last characters ('javascript:')
 * or at the last '<' (a marker holds no other '<'); that tail is carried over with its whitespace runs shortened to
 * one space, which the pattern (\s*, \s+, [\s>]) cannot tell apart, so the carry stays small.
 */
async function isPlainTextAt(file: { path: string; size: number }) {
  if (file.size === 0) return false;
  let carry = '';
  for await (const chunk of chunksOf(file.path)) {
    if (chunk.includes(0)) return false;
    const text = carry + chunk.toString('latin1');
    if (HTML_MARKERS.test(text)) return false;
    carry = markerTail(text);
  }
  return true;
}

function markerTail(text: string) {
  const lastChars = Math.max(0, text.length - 16);
  const lt = text.lastIndexOf('<');
  if (lt >= 0 && lt < lastChars) {
    const fromLt = text.slice(lt).replace(/\s+/g, ' ');
    // The longest start of a marker ('< !doctype html') is far shorter: a longer tail can start none.
    if (fromLt.length <= 64) return fromLt;
  }
  return text.slice(lastChars).replace(/\s+/g, ' ');
}

/** Whether the file's bytes contain every needle (ASCII), scanned with an overlap so none is cut at a chunk end. */
async function includesAll(path: string, needles: string[]) {
  const missing = new Set(needles);
  const overlap = Math.max(...needles.map((n) => n.length)) - 1;
  let tail = Buffer.alloc(0);
  for await (const chunk of chunksOf(path)) {
    const window = Buffer.concat([tail, chunk]);
    for (const needle of missing) if (window.includes(needle)) missing.delete(needle);
    if (!missing.size) return true;
    tail = window.subarray(Math.max(0, window.length - overlap));
  }
  return false;
}
