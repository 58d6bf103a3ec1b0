/**
 * The order PDF thread, seen from the transmission worker: the order documents (data format 1) are rendered in a
 * worker thread instead of on the API's event loop, where pdfkit, fontkit and zlib blocked every request for the
 * duration of a document (bench:checkout: five documents per checkout, ~25 % of the busy time). One thread: on a
 * small machine a second one would only compete with the API for the same cores. The thread keeps its parsed fonts
 * between documents and ends when idle; the next document starts a new one.
 */
import { JobThread } from '../../../lib/job-thread.ts';
import type { SupplierOrderForTransmission } from '../transmission.types.ts';

/**
 * Under tsx (tests, benches) the thread boots through pdf-thread-boot.mjs, which loads the TypeScript entry; in the
 * compiled API (apps/api/dist, scripts/build-api.mjs) this code lies beside order-pdf-worker.js, plain JavaScript.
 * An idle thread ends after a minute; a crash or out of memory fails the documents of the thread this attempt (the
 * transmission worker retries them).
 */
const compiled = !import.meta.url.endsWith('.ts');
const pdfThread = new JobThread<SupplierOrderForTransmission, Buffer>({
  name: 'order PDF thread',
  bootFile: new URL(compiled ? './order-pdf-worker.js' : './pdf-thread-boot.mjs', import.meta.url),
  entry: new URL('./pdf-thread-worker.ts', import.meta.url).href,
  idleMs: 60_000,
  settle: (m) => {
    if (m.error !== undefined || !m.pdf)
      throw new Error((m.error as string | undefined) ?? 'order PDF thread: no document');
    return Buffer.from(m.pdf as ArrayBuffer);
  },
});
/** Heap of the thread (MB): an order document with a few hundred lines needs a few MB. */
const LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/** orderPdf (pdf-order.ts) in the order PDF thread: the same document, rendered off the event loop. */
export function orderPdfInThread(order: SupplierOrderForTransmission): Promise<Buffer> {
  return pdfThread.run(order, LIMITS);
}

/** Ends the thread (the transmission worker stops); a document being rendered fails this attempt. */
export async function stopOrderPdfThread(): Promise<void> {
  await pdfThread.stop();
}
