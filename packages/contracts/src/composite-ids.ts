/**
 * Separator of the composite ids: productId = manufacturerId~manufacturerPid, productInstanceId = supplierBpNo~supplierPid.
 * In a module without zod: the SPA's product links (and the product page's first request) need it before any schema.
 */
export const ID_SEPARATOR = '~';
