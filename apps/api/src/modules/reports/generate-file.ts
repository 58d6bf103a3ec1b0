import type pg from 'pg';
import { reportTypeNames, type ReportFormat, type ReportType } from '@shk/contracts';
import { reportDefinitions } from './report-types.ts';
import { writeCsv, writeXlsx, type RowBatches } from './writers.ts';
import { openReportCursor } from './report-cursor.repo.ts';

/** What a generation needs; plain data, so that it can be handed to a worker thread. */
export interface GenerateFileJob {
  /** Connection of the generation's own database client (the worker thread has no pool). */
  connection: pg.ClientConfig;
  reportTypeId: number;
  format: ReportFormat;
  startDate: string;
  endDate: string;
  /** The temporary file written. */
  file: string;
}

/**
 * Rows per FETCH. Small enough that a batch dies young (it is written before the next scavenge) instead of
 * being promoted and piling up as old-generation garbage; large enough that round trips do not matter.
 */
export const FETCH_SIZE = 1000;

/**
 * Writes the report file: the report's query through a server-side cursor in batches of FETCH_SIZE rows
 * (never all rows in memory), into the CSV or XLSX writer. Returns the number of rows.
 */
export async function generateFile(job: GenerateFileJob): Promise<number> {
  const definition = reportDefinitions[job.reportTypeId as ReportType];
  const cursor = await openReportCursor(job.connection, definition.sql, [job.startDate, job.endDate], FETCH_SIZE);
  try {
    async function* batches(): RowBatches {
      for (;;) {
        const rows = await cursor.fetch();
        if (!rows.length) return;
        yield definition.map ? rows.map(definition.map) : rows;
      }
    }
    const count =
      job.format === 'csv'
        ? await writeCsv(job.file, definition.columns, batches())
        : await writeXlsx(job.file, reportTypeNames[job.reportTypeId as ReportType], definition.columns, batches());
    await cursor.commit();
    return count;
  } finally {
    await cursor.close();
  }
}
