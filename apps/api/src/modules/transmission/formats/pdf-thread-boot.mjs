// A worker thread does not inherit the TypeScript loader of the process (`--import tsx`), so the order PDF thread
// starts here, in plain JavaScript, and loads its TypeScript entry through tsx's API (as the report thread does).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
