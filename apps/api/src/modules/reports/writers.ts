import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify';
import type { CellType, ReportColumn } from './report-types.ts';
import { neutraliseCsvCell } from '../../lib/uploads/csv-safe.ts';

/** Rows arrive in batches from a database cursor; a writer never holds more than one batch. */
export type RowBatches = AsyncIterable<unknown[][]>;

const excelFormats: Partial<Record<CellType, string>> = {
  int: '#,##0',
  number: '#,##0.###',
  money: '#,##0.00 "€"',
  date: 'dd.mm.yyyy',
  datetime: 'dd.mm.yyyy hh:mm',
};

/**
 * Berlin wall-clock text 'YYYY-MM-DD[THH:MM:SS]' → Excel serial date (days since 1899-12-30; Excel has no
 * zones, the file shows the wall clock). exceljs writes a Date cell as exactly this number, styled with the
 * column's date format, and reads it back as a Date; computing it here skips a Date per cell.
 */
function excelDate(value: unknown): number | null {
  if (value == null || value === '') return null;
  const t = String(value);
  const n = (from: number, to: number) => Number(t.slice(from, to)) || 0;
  return Date.UTC(n(0, 4), n(5, 7) - 1, n(8, 10), n(11, 13), n(14, 16), n(17, 19)) / 86_400_000 + 25_569;
}

function excelValue(type: CellType, value: unknown) {
  if (value == null) return null;
  if (type === 'date' || type === 'datetime') return excelDate(value);
  if (type === 'text') return String(value);
  return Number(value);
}

/** Streams an XLSX file: typed cells, German number/date formats, frozen header row, auto filter. */
export async function writeXlsx(file: string, sheetName: string, columns: ReportColumn[], batches: RowBatches) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  // One style object per column, shared by all its cells: exceljs looks a cell's style up by object identity
  // (a WeakMap), so a shared object is resolved once, while a cell's own copy (what a column style gives each
  // new cell) is rendered to XML and searched for every cell — most of the time of a large sheet.
  const styles: Partial<ExcelJS.Style>[] = columns.map((c) =>
    excelFormats[c.type] ? { numFmt: excelFormats[c.type] } : {},
  );
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width, style: styles[i] }));
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  let count = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      const added = sheet.addRow(columns.map((c, i) => excelValue(c.type, row[i])));
      for (let i = 0; i < styles.length; i++) added.getCell(i + 1).style = styles[i];
      added.commit();
      count++;
    }
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

const germanNumber = (digits: [number, number]) =>
  new Intl.NumberFormat('de-DE', {
    minimumFractionDigits: digits[0],
    maximumFractionDigits: digits[1],
    useGrouping: false,
  });
const csvNumbers: Partial<Record<CellType, Intl.NumberFormat>> = {
  int: germanNumber([0, 0]),
  number: germanNumber([0, 3]),
  money: germanNumber([2, 2]),
};

/** A cell starting like a formula is shown as text (the one shared rule: lib/uploads/csv-safe.ts). */
export function neutraliseFormula(text: string): string {
  return neutraliseCsvCell(text);
}

function csvValue(type: CellType, value: unknown): string {
  if (value == null) return '';
  const text = String(value);
  if (type === 'text') return neutraliseFormula(text);
  if (type === 'date') return `${text.slice(8, 10)}.${text.slice(5, 7)}.${text.slice(0, 4)}`;
  if (type === 'datetime') return `${text.slice(8, 10)}.${text.slice(5, 7)}.${text.slice(0, 4)} ${text.slice(11, 16)}`;
  return csvNumbers[type]!.format(Number(value));
}

/** Streams a CSV file as Excel in Germany opens it: UTF-8 with BOM, semicolons, German numbers and dates. */
export async function writeCsv(file: string, columns: ReportColumn[], batches: RowBatches) {
  let count = 0;
  async function* records() {
    for await (const batch of batches) {
      for (const row of batch) {
        count++;
        yield columns.map((c, i) => csvValue(c.type, row[i]));
      }
    }
  }
  await pipeline(
    Readable.from(records()),
    stringify({
      delimiter: ';',
      bom: true,
      header: true,
      columns: columns.map((c) => c.header),
      record_delimiter: 'windows',
    }),
    fs.createWriteStream(file),
  );
  return count;
}
