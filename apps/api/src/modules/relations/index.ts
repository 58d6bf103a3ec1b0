/**
 * Public face of the relations module: Supplier–customer relations and the orderability they give.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { relationsRoutes } from './relations.routes.ts';
export { RelationsService } from './relations.service.ts';
export { orderabilityBySupplier, orderabilityOf } from './orderability.ts';
