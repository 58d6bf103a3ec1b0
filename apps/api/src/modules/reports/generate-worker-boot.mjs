// A worker thread does not inherit the TypeScript loader of the process (`--import tsx`), so the report
// worker starts here, in plain JavaScript, and loads its TypeScript entry through tsx's API.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
