/**
 * The report thread, seen from the API: a worker thread with a capped heap that writes report files
 * (generate-worker.ts → generate-file.ts). This file loads neither exceljs nor the report queries, so the
 * API's main thread does not carry them.
 */
import { JobThread } from '../../lib/job-thread.ts';
import type { GenerateFileJob } from './generate-file.ts';

/**
 * Heap of the report worker thread (MB): V8 collects the generation's garbage within it instead of letting the
 * API's heap grow with it. REPORT_WORKER_HEAP_MB (config.reports.threadHeapMb) sets the old generation's cap.
 */
const DEFAULT_HEAP_MB = 48;
const workerLimits = (heapMb: number) => ({ maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8 });

/**
 * Under tsx (tests, tools) the thread boots through generate-worker-boot.mjs, which loads the TypeScript entry; in
 * the compiled API (apps/api/dist, scripts/build-api.mjs) this code lies beside report-worker.js, plain JavaScript.
 * It starts on first use (loading exceljs and the report code takes seconds on a busy machine) and ends after 30 s
 * idle; out of memory (resourceLimits) or a crash fails every report of the thread (and it is retried).
 */
const compiled = !import.meta.url.endsWith('.ts');
const reportThread = new JobThread<GenerateFileJob, number>({
  name: 'report worker',
  abortedMessage: 'report generation aborted',
  bootFile: new URL(compiled ? './report-worker.js' : './generate-worker-boot.mjs', import.meta.url),
  entry: new URL('./generate-worker.ts', import.meta.url).href,
  idleMs: 30_000,
  settle: (m) => {
    const error = m.error as { message: string; code?: string } | undefined;
    if (error) throw Object.assign(new Error(error.message), error.code ? { code: error.code } : {});
    return (m.rows as number | undefined) ?? 0;
  },
});

/** Ends the report thread (the app closes); a running generation fails and its report is retried later. */
export async function stopReportThread() {
  await reportThread.stop();
}

/**
 * generateFile in the report worker thread, whose heap is capped: the API's own heap does not grow with a
 * large report. An abort (the attempt lost its lease) terminates the thread and with it the generation's
 * database connection; a report running beside it in the same thread fails this attempt and is retried.
 */
export function generateFileInWorker(
  job: GenerateFileJob,
  signal?: AbortSignal,
  heapMb = DEFAULT_HEAP_MB,
): Promise<number> {
  return reportThread.run(job, workerLimits(heapMb), signal);
}
