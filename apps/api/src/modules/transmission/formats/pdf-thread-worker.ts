/**
 * Worker thread entry (started by pdf-thread.ts): renders the order PDFs it is sent, `{ id, job }` (the order) →
 * `{ id, pdf }` or `{ id, error }`. The fonts and word layouts stay parsed in this thread between documents.
 */
import { parentPort } from 'node:worker_threads';
import type { SupplierOrderForTransmission } from '../transmission.types.ts';
import { orderPdf } from './pdf-order.ts';

parentPort!.on('message', ({ id, job: order }: { id: number; job: SupplierOrderForTransmission }) => {
  try {
    const pdf = orderPdf(order);
    // Its own copy is moved to the API's thread (a Buffer may share its memory with others of this thread's pool).
    const bytes = new Uint8Array(pdf).buffer;
    parentPort!.postMessage({ id, pdf: bytes }, [bytes]);
  } catch (error) {
    parentPort!.postMessage({ id, error: String((error as Error)?.message ?? error) });
  }
});
