/**
 * Public face of the suppliers module: Suppliers: public reads, administration, files and transmission workflows.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { supplierReadRoutes } from './suppliers.routes.ts';
export { supplierAdminRoutes } from './suppliers-admin.routes.ts';
export { workflowAdminRoutes } from './workflows-admin.routes.ts';
export { SuppliersService } from './suppliers.service.ts';
export { SupplierReadsService } from './supplier-reads.service.ts';
