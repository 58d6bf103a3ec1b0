// `npm run gen:api` builds the document without a database: every module registers its routes and hands over its
// workers (they start only when a runtime starts the lifecycle list) without touching the pool.
import { expect, it } from 'vitest';
import { openApiDocument } from './openapi-document.ts';

it('builds the OpenAPI document with the workers on and no database', async () => {
  const document = (await openApiDocument()) as { paths: Record<string, unknown> };
  expect(Object.keys(document.paths)).toContain('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports');
}, 60_000);
