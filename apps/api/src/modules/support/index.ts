/**
 * Public face of the support module: Support requests and partner data change requests.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { supportRoutes } from './support.routes.ts';
export { SupportService } from './support.service.ts';
