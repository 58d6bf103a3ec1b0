/**
 * Public face of the health module: Liveness and readiness.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { healthRoutes } from './health.routes.ts';
