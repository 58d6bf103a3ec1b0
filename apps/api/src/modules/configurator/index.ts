/**
 * Public face of the configurator module: The product configurator integration (signed hand-over and return).
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { configuratorRoutes } from './configurator.routes.ts';
export { ConfiguratorService } from './configurator.service.ts';
