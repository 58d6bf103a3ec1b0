/**
 * The report thread, seen from the API: a worker thread with a capped heap that writes report files
 * (generate-worker.ts → generate-file.ts). This file loads neither exceljs nor the report queries, so the
 * API's main thread does not carry them.
 */
import { Worker } from 'node:worker_threads';
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
 */
const compiled = !import.meta.url.endsWith('.ts');
const bootFile = new URL(compiled ? './report-worker.js' : './generate-worker-boot.mjs', import.meta.url);
const entryFile = new URL('./generate-worker.ts', import.meta.url).href;
/** An idle report thread ends after this time (its memory is given back); the next report starts a new one. */
const IDLE_MS = 30_000;

interface Pending {
  resolve: (rows: number) => void;
  reject: (error: Error) => void;
}
interface ReportThread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}
let current: ReportThread | null = null;
let nextJob = 0;

/** Ends a thread; a job arriving meanwhile starts a new one instead of landing in the ending thread. */
function retire(thread: ReportThread) {
  if (current === thread) current = null;
  void thread.worker.terminate();
}

/** The report thread, started on first use: loading exceljs and the report code takes seconds on a busy machine. */
function reportThread(heapMb: number): ReportThread {
  if (current) {
    clearTimeout(current.idle);
    return current;
  }
  const thread: ReportThread = {
    worker: new Worker(bootFile, { workerData: { entry: entryFile }, resourceLimits: workerLimits(heapMb) }),
    pending: new Map(),
  };
  // An idle thread never keeps the process alive (the job queue does while a report runs).
  thread.worker.unref();
  const settleAll = (error: Error) => {
    for (const p of thread.pending.values()) p.reject(error);
    thread.pending.clear();
  };
  thread.worker.on('message', (m: { id: number; rows?: number; error?: { message: string; code?: string } }) => {
    const p = thread.pending.get(m.id);
    thread.pending.delete(m.id);
    if (m.error) p?.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    else p?.resolve(m.rows ?? 0);
    if (!thread.pending.size) thread.idle = setTimeout(() => retire(thread), IDLE_MS).unref();
  });
  // Out of memory (resourceLimits) or a crash: every report of this thread fails this attempt (and is retried).
  thread.worker.on('error', (error) => settleAll(error));
  thread.worker.on('exit', (code) => {
    if (current === thread) current = null;
    clearTimeout(thread.idle);
    settleAll(new Error(`report worker exited with ${code}`));
  });
  current = thread;
  return thread;
}

/** Ends the report thread (the app closes); a running generation fails and its report is retried later. */
export async function stopReportThread() {
  await current?.worker.terminate();
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
  if (signal?.aborted) return Promise.reject(new Error('report generation aborted'));
  const thread = reportThread(heapMb);
  const id = ++nextJob;
  return new Promise<number>((resolve, reject) => {
    const abort = () => {
      thread.pending.delete(id);
      reject(new Error('report generation aborted'));
      retire(thread);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    thread.pending.set(id, {
      resolve: (rows) => (done(), resolve(rows)),
      reject: (error) => (done(), reject(error)),
    });
    thread.worker.postMessage({ id, job });
  });
}
