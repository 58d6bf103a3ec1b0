/**
 * Worker thread entry (started through generate-worker-boot.mjs): generates the report files it is sent,
 * `{ id, job }` → `{ id, rows }` or `{ id, error: { message, code } }`. Its heap is capped by the caller's
 * resourceLimits, so the garbage of a million rows is collected within a small heap.
 */
import { parentPort } from 'node:worker_threads';
import { generateFile, type GenerateFileJob } from './generate-file.ts';

parentPort!.on('message', ({ id, job }: { id: number; job: GenerateFileJob }) => {
  generateFile(job).then(
    (rows) => parentPort!.postMessage({ id, rows }),
    (error: { message?: string; code?: unknown }) =>
      parentPort!.postMessage({
        id,
        error: {
          message: String(error?.message ?? error),
          code: typeof error?.code === 'string' ? error.code : undefined,
        },
      }),
  );
});
