import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

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

/**
 * neutraliseCsvUpload for a file on disk (an upload spooled by spooled-upload.ts), giving the same verdict and the
 * same bytes without holding the file in memory: it is parsed twice as a stream, once to learn whether any cell needs
 * neutralising (and whether it parses at all), once more to write the neutralised copy. Returns how to read what
 * is to be stored: the file as it is (not a CSV, or nothing dangerous in it) or its neutralised copy; null when a
 * .csv file is no parsable CSV.
 */
export async function neutraliseCsvUploadFile(fileName: string, path: string): Promise<(() => Readable) | null> {
  const asIs = () => createReadStream(path);
  if (!/\.csv$/i.test(fileName)) return asIs;
  const encoding: BufferEncoding = (await isUtf8File(path)) ? 'utf8' : 'latin1';
  const bom = encoding === 'utf8' && (await startsWith(path, UTF8_BOM));
  const sep = await delimiterOfFirstLine(path);
  const options = { delimiter: sep, relax_column_count: true, relax_quotes: true, bom: true };
  // The sync parser reads a string as UTF-8: a latin1 file is handed over as the UTF-8 of its text, as there.
  async function* parserInput() {
    for await (const chunk of createReadStream(path))
      yield encoding === 'utf8' ? (chunk as Buffer) : Buffer.from((chunk as Buffer).toString('latin1'));
  }
  let changed = false;
  try {
    await pipeline(parserInput(), parse(options), async (rows: AsyncIterable<string[]>) => {
      for await (const row of rows) if (!changed) changed = neutraliseCsvRow(row).some((cell, i) => cell !== row[i]);
    });
  } catch {
    return null;
  }
  if (!changed) return asIs;
  return () => {
    const decoder = new StringDecoder('utf8');
    const encode = new Transform({
      transform: (chunk: Buffer, _e, done) => done(null, Buffer.from(decoder.write(chunk), encoding)),
      flush: (done) => done(null, Buffer.from(decoder.end(), encoding)),
    });
    const neutralise = new Transform({
      objectMode: true,
      transform: (row: string[], _e, done) => done(null, neutraliseCsvRow(row)),
    });
    if (bom) encode.push(UTF8_BOM);
    const out = new PassThrough();
    pipeline(
      parserInput(),
      parse(options),
      neutralise,
      stringify({ delimiter: sep, record_delimiter: '\r\n' }),
      encode,
      out,
    ).catch((error: Error) => out.destroy(error));
    return out;
  };
}

/** isUtf8 of the whole file, decided chunk by chunk (the WHATWG decoder refuses what isUtf8 refuses). */
async function isUtf8File(path: string) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

async function startsWith(path: string, prefix: Buffer) {
  for await (const chunk of createReadStream(path, { start: 0, end: prefix.length - 1 }))
    return (chunk as Buffer).equals(prefix);
  return false;
}

/**
 * The delimiter neutraliseCsvFile takes from the first line: the first of ; tab , that it contains. These are single
 * bytes in UTF-8 and ISO-8859-1 alike (never inside a multi-byte character), so the bytes up to the first LF decide.
 */
async function delimiterOfFirstLine(path: string) {
  const found = new Set<number>();
  scan: for await (const chunk of createReadStream(path)) {
    for (const byte of chunk as Buffer) {
      if (byte === 0x0a) break scan;
      found.add(byte);
    }
  }
  return [';', '\t', ','].find((d) => found.has(d.charCodeAt(0))) ?? ';';
}
