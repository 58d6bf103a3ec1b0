/**
 * Public face of the reports module: Reports generated in a worker thread, and the zero-hit search log.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { reportsRoutes } from './reports.routes.ts';
export { ReportsService, reportWorkerOptionsOf, type ReportWorkerOptions } from './reports.service.ts';
export { ZeroHitLog } from './zero-hits.ts';
