/**
 * Reads quick-order lines from pasted text (as copied from a spreadsheet, a quote or a craftsman's
 * software), CSV (csv-parse) or XLSX (exceljs): article number or GTIN, quantity, optional supplier.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { quickOrderMessages } from '@shk/contracts';

export interface ParsedLine {
  line: number;
  input: string;
  articleNumber: string;
  quantity: number | null;
  supplier: string | null;
  error: string | null;
}

export function parsePastedText(text: string): ParsedLine[] {
  const lines: ParsedLine[] = [];
  text.split(/\r?\n/).forEach((raw, k) => {
    const input = raw.trim();
    if (!input) return;
    lines.push(fromFields(k + 1, input, splitLine(input)));
  });
  return dropHeader(lines);
}

/** Tab, then semicolon, then comma, then spaces: the first separator the line contains wins. */
function splitLine(line: string): string[] {
  if (line.includes('\t')) return line.split('\t');
  if (line.includes(';')) return line.split(';');
  // "4711, 2" splits; "4711 2,5" keeps the decimal comma.
  if (/,\s*\d/.test(line) && !/\s\d+,\d+\s*$/.test(line)) return line.split(',');
  return line.split(/\s+/);
}

function fromFields(line: number, input: string, raw: unknown[]): ParsedLine {
  const fields = raw.map((f) => String(f ?? '').trim()).filter((f, i) => f !== '' || i < 2);
  const articleNumber = fields[0] ?? '';
  const quantityText = fields[1] ?? '';
  const quantity = quantityText === '' ? 1 : toNumber(quantityText);
  return {
    line,
    input,
    articleNumber,
    quantity,
    supplier: fields[2] || null,
    error: !articleNumber
      ? quickOrderMessages.noLines
      : quantity === null || quantity <= 0
        ? quickOrderMessages.invalidQuantity
        : null,
  };
}

function toNumber(text: string): number | null {
  const t = text.replace(/\s/g, '');
  const n = Number(/^\d{1,3}(\.\d{3})*,\d+$|^\d+,\d+$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t);
  return Number.isFinite(n) ? n : null;
}

/** A first line like "Artikelnummer;Menge" is a header, not an article. */
function dropHeader(lines: ParsedLine[]): ParsedLine[] {
  const first = lines[0];
  if (first && first.error && /artikel|menge|gtin|ean|nummer/i.test(first.input)) return lines.slice(1);
  return lines;
}

export function parseCsvFile(content: Buffer): ParsedLine[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0];
  const delimiter = firstLine.includes('\t') ? '\t' : firstLine.includes(';') ? ';' : ',';
  const records: string[][] = parseCsv(text, {
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
  });
  return dropHeader(records.map((r, k) => fromFields(k + 1, r.join(delimiter), r)));
}

export async function parseXlsxFile(content: Buffer): Promise<ParsedLine[]> {
  // Loaded on first use: exceljs adds ~30 MB to a process, and only this upload and the report thread need it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const lines: ParsedLine[] = [];
  sheet?.eachRow((row, rowNumber) => {
    const cells = [1, 2, 3].map((c) => {
      const v = row.getCell(c).value;
      return v && typeof v === 'object' && 'result' in v
        ? v.result
        : v && typeof v === 'object' && 'text' in v
          ? v.text
          : v;
    });
    if (cells.every((c) => c === null || c === undefined || c === '')) return;
    lines.push(fromFields(rowNumber, cells.map((c) => String(c ?? '')).join(';'), cells));
  });
  return dropHeader(lines);
}
