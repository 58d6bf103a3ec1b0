/**
 * Public face of the catalogue-import module: Catalogue import: BMEcat/CSV uploads, staging, the price lane and search publication.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { catalogueImportRoutes } from './catalogue-import.routes.ts';
export { CatalogueImportService } from './catalogue-import.service.ts';
