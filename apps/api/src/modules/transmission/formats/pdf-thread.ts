/**
 * The order PDF thread, seen from the transmission worker: the order documents (data format 1) are rendered in a
 * worker thread instead of on the API's event loop, where pdfkit, fontkit and zlib blocked every request for the
 * duration of a document (bench:checkout: five documents per checkout, ~25 % of the busy time). One thread: on a
 * small machine a second one would only compete with the API for the same cores. The thread keeps its parsed fonts
 * between documents and ends when idle; the next document starts a new one.
 */
import { Worker } from 'node:worker_threads';
import type { SupplierOrderForTransmission } from '../transmission.types.ts';

/**
 * Under tsx (tests, benches) the thread boots through pdf-thread-boot.mjs, which loads the TypeScript entry; in the
 * compiled API (apps/api/dist, scripts/build-api.mjs) this code lies beside order-pdf-worker.js, plain JavaScript.
 */
const compiled = !import.meta.url.endsWith('.ts');
const bootFile = new URL(compiled ? './order-pdf-worker.js' : './pdf-thread-boot.mjs', import.meta.url);
const entryFile = new URL('./pdf-thread-worker.ts', import.meta.url).href;
/** An idle thread ends after this time (its memory is given back). */
const IDLE_MS = 60_000;
/** Heap of the thread (MB): an order document with a few hundred lines needs a few MB. */
const HEAP_MB = 96;

interface Pending {
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}
interface PdfThread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}
let current: PdfThread | null = null;
let nextJob = 0;

function retire(thread: PdfThread) {
  if (current === thread) current = null;
  void thread.worker.terminate();
}

function pdfThread(): PdfThread {
  if (current) {
    clearTimeout(current.idle);
    return current;
  }
  const thread: PdfThread = {
    worker: new Worker(bootFile, {
      workerData: { entry: entryFile },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 16 },
    }),
    pending: new Map(),
  };
  // An idle thread never keeps the process alive (the transmission worker does while a document is rendered).
  thread.worker.unref();
  const settleAll = (error: Error) => {
    for (const p of thread.pending.values()) p.reject(error);
    thread.pending.clear();
  };
  thread.worker.on('message', (m: { id: number; pdf?: ArrayBuffer; error?: string }) => {
    const p = thread.pending.get(m.id);
    thread.pending.delete(m.id);
    if (m.error !== undefined || !m.pdf) p?.reject(new Error(m.error ?? 'order PDF thread: no document'));
    else p?.resolve(Buffer.from(m.pdf));
    if (!thread.pending.size) thread.idle = setTimeout(() => retire(thread), IDLE_MS).unref();
  });
  // A crash or out of memory: the documents of this thread fail this attempt (the worker retries them).
  thread.worker.on('error', (error) => settleAll(error));
  thread.worker.on('exit', (code) => {
    if (current === thread) current = null;
    clearTimeout(thread.idle);
    settleAll(new Error(`order PDF thread exited with ${code}`));
  });
  current = thread;
  return thread;
}

/** orderPdf (pdf-order.ts) in the order PDF thread: the same document, rendered off the event loop. */
export function orderPdfInThread(order: SupplierOrderForTransmission): Promise<Buffer> {
  const thread = pdfThread();
  const id = ++nextJob;
  return new Promise<Buffer>((resolve, reject) => {
    thread.pending.set(id, { resolve, reject });
    thread.worker.postMessage({ id, order });
  });
}

/** Ends the thread (the transmission worker stops); a document being rendered fails this attempt. */
export async function stopOrderPdfThread(): Promise<void> {
  const thread = current;
  current = null;
  if (thread) await thread.worker.terminate();
}
