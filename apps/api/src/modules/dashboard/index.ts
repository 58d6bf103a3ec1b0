/**
 * Public face of the dashboard module: Dashboard figures for buyers, sellers and staff.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { dashboardRoutes } from './dashboard.routes.ts';
