/**
 * Public face of the supplier-orders module: Supplier orders for sellers: documents, confirmations, inbound ORDRSP (HTTP and SFTP/FTP pick-up).
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { supplierOrdersRoutes } from './supplier-orders.routes.ts';
export { inboundRoutes } from './inbound.routes.ts';
export { SupplierOrdersService } from './supplier-orders.service.ts';
export { InboundOrdrspService } from './inbound.service.ts';
export { supplierOrderDetails } from './supplier-order-details.ts';
