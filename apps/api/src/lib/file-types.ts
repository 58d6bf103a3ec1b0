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
  const detected = await fileTypeFromBuffer(content);
  const ext = extensionOf(fileName);
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
