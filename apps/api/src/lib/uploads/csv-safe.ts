import { isUtf8 } from 'node:buffer';

/**
 * Formula injection (OWASP "CSV injection"): a spreadsheet executes a cell that starts with
 * = + - @, a tab or a carriage return. Every CSV we generate or forward passes its cells through
 * here; the cell is prefixed with an apostrophe, which spreadsheets show as text and hide.
 * Plain numbers (also negative ones such as "-3,5") stay numbers.
 */
const TRIGGER = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?$/;

export function neutraliseCsvCell<T>(value: T): T | string {
  if (typeof value !== 'string' || !TRIGGER.test(value) || NUMBER.test(value)) return value;
  return `'${value}`;
}

/** A whole row (array or record) neutralised cell by cell, e.g. as csv-stringify's `cast` or before it. */
export function neutraliseCsvRow<R extends unknown[] | Record<string, unknown>>(row: R): R {
  if (Array.isArray(row)) return row.map((cell) => neutraliseCsvCell(cell)) as R;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, neutraliseCsvCell(v)])) as R;
}

/**
 * Neutralises a CSV file we forward (e.g. a buyer's attachment to a supplier): parsed with csv-parse,
 * every cell checked, written again with csv-stringify in the same delimiter and encoding (UTF-8, with its
 * byte order mark if it had one, or ISO-8859-1). A file without a dangerous cell is returned unchanged.
 * Throws when the file cannot be parsed as CSV.
 */
export async function neutraliseCsvFile(content: Buffer, delimiter?: string): Promise<Buffer> {
  const { parse } = await import('csv-parse/sync');
  const { stringify } = await import('csv-stringify/sync');
  const encoding: BufferEncoding = isUtf8(content) ? 'utf8' : 'latin1';
  const bom = encoding === 'utf8' && content.subarray(0, 3).equals(UTF8_BOM);
  const text = content.toString(encoding);
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const sep = delimiter ?? ([';', '\t', ','].find((d) => firstLine.includes(d)) || ';');
  const rows = parse(text, { delimiter: sep, relax_column_count: true, relax_quotes: true, bom: true }) as string[][];
  const safe = rows.map((r) => neutraliseCsvRow(r));
  if (safe.every((row, i) => row.every((cell, j) => cell === rows[i][j]))) return content;
  const out = Buffer.from(stringify(safe, { delimiter: sep, record_delimiter: '\r\n' }), encoding);
  return bom ? Buffer.concat([UTF8_BOM, out]) : out;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * An uploaded file that will be forwarded (cart attachments go to the supplier with the order, order documents
 * to the buyer): CSV files are neutralised, other files are returned as they are; null when a .csv file is no
 * parsable CSV (the caller refuses it as a wrong format).
 */
export async function neutraliseCsvUpload(fileName: string, content: Buffer): Promise<Buffer | null> {
  if (!/\.csv$/i.test(fileName)) return content;
  try {
    return await neutraliseCsvFile(content);
  } catch {
    return null;
  }
}
