/**
 * Public face of the addresses module: Delivery addresses of a business partner.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { addressesRoutes } from './addresses.routes.ts';
export { AddressesService } from './addresses.service.ts';
