import { z } from 'zod';
import {
  CatalogueImport,
  CatalogueImportDetails,
  CatalogueImportSettings,
  Role,
  catalogueImportMessages,
  DbId,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { badRequest } from '../../http/problem.ts';
import { cleanFileName } from '../../lib/file-types.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { CatalogueImportService, ImportSweeper, registerCatalogueImportJob } from './catalogue-import.service.ts';
import { MediaFetcher } from './media-fetcher.ts';

const importers = [Role.Administrator, Role.Seller] as const;
const SupplierParams = z.object({ supplierBusinessPartnerNo: z.string().min(1).max(20) });
const ImportParams = SupplierParams.extend({ id: DbId });
/** Catalogue files are large: the upload limit of this route only (the app default stays at 100 MB). */
const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

export async function catalogueImportRoutes(app: App, deps: AppDeps) {
  const service = new CatalogueImportService(deps);
  // CATALOGUE_IMPORT_WORKER=off: this process runs no imports and no sweeper (another process does).
  if (deps.config.catalogueImport.worker) {
    registerCatalogueImportJob(deps);
    const log = {
      info: (...a: unknown[]) => app.log.info(a.map(String).join(' ')),
      error: (...a: unknown[]) => app.log.error(a[0] as object, String(a[1] ?? '')),
    };
    const sweeper = new ImportSweeper(deps, log);
    deps.lifecycle.provide('catalogue import sweeper', sweeper);
    // Built at start: the OpenAPI generator has no pool to read the database's address from.
    let fetcher: MediaFetcher | null = null;
    deps.lifecycle.provide('media fetcher', {
      start: () => {
        fetcher = new MediaFetcher(deps.pool, deps.config, deps.pool.options.connectionString, log);
        fetcher.start();
      },
      stop: () => fetcher?.stop(),
    });
  }

  app.post(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports',
    {
      config: { roles: importers },
      schema: {
        tags: ['Katalogimport'],
        summary:
          'Katalogdatei hochladen (BMEcat 2005, DATANORM 4/5 oder ZIP, Feld „file“); der Import läuft im Hintergrund',
        consumes: ['multipart/form-data'],
        params: SupplierParams,
        response: { 202: z.object({ id: z.number().int(), message: z.string() }) },
      },
    },
    async (request, reply) => {
      const supplier = request.params.supplierBusinessPartnerNo;
      const caller = callerOf(request);
      await service.checkAccess(caller, supplier);
      if (!request.isMultipart()) throw badRequest(catalogueImportMessages.uploadMissing);
      const file = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES } });
      if (!file || file.fieldname !== 'file') throw badRequest(catalogueImportMessages.uploadMissing);
      // The name is shown to staff and stored as text: no path parts, control (NUL) or bidi characters.
      const id = await service.start(
        caller,
        supplier,
        file.filename ? cleanFileName(file.filename) : 'katalog',
        file.file,
      );
      return reply.status(202).send({ id, message: catalogueImportMessages.started });
    },
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports',
    {
      config: { roles: importers },
      schema: {
        tags: ['Katalogimport'],
        summary: 'Die letzten 50 Katalogimporte eines Lieferanten',
        params: SupplierParams,
        response: { 200: z.array(CatalogueImport) },
      },
    },
    async (request) => {
      await service.checkAccess(callerOf(request), request.params.supplierBusinessPartnerNo);
      return service.list(request.params.supplierBusinessPartnerNo);
    },
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id',
    {
      config: { roles: importers },
      schema: {
        tags: ['Katalogimport'],
        summary: 'Status, Zähler und die ersten 1.000 Ablehnungen eines Katalogimports',
        params: ImportParams,
        response: { 200: CatalogueImportDetails },
      },
    },
    async (request) => {
      await service.checkAccess(callerOf(request), request.params.supplierBusinessPartnerNo);
      return service.details(request.params.supplierBusinessPartnerNo, request.params.id);
    },
  );

  const decisions = [
    ['Approve', 'Freigabe: der wartende Gesamtkatalog zieht die aufgelisteten Angebote zurück', 'approve'],
    ['Discard', 'Verwerfen: was der wartende Gesamtkatalog geschrieben hat, wird zurückgesetzt', 'discard'],
    ['Undo', 'Import rückgängig machen (der letzte angewandte Import, bis 30 Tage nach seinem Ende)', 'undo'],
  ] as const;
  for (const [action, summary, method] of decisions)
    app.post(
      `/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/${action}`,
      {
        config: { roles: importers },
        schema: { tags: ['Katalogimport'], summary, params: ImportParams, response: { 200: CatalogueImportDetails } },
      },
      async (request) => {
        const caller = callerOf(request);
        const { supplierBusinessPartnerNo: supplier, id } = request.params;
        await service.checkAccess(caller, supplier);
        return service[method](caller, supplier, id);
      },
    );

  for (const [kind, file] of [
    ['warnings', 'Warnungen'],
    ['rejections', 'Ablehnungen'],
  ] as const)
    app.get(
      `/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/${kind === 'warnings' ? 'Warnings' : 'Rejections'}.csv`,
      {
        config: { roles: importers },
        schema: {
          tags: ['Katalogimport'],
          summary: `${file} eines Katalogimports als CSV (Position, Artikelnummer, ${kind === 'warnings' ? 'Hinweis' : 'Grund'})`,
          params: ImportParams,
        },
      },
      async (request, reply) => {
        const { supplierBusinessPartnerNo: supplier, id } = request.params;
        await service.checkAccess(callerOf(request), supplier);
        const csv = await service.listCsv(supplier, id, kind);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', attachmentHeader(`Katalogimport-${id}-${file}.csv`))
          .send(csv);
      },
    );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImportSettings',
    {
      config: { roles: importers },
      schema: {
        tags: ['Katalogimport'],
        summary: 'Grenzwerte eines Gesamtkatalogs (zurückgezogener und abgelehnter Anteil in Prozent)',
        params: SupplierParams,
        response: { 200: CatalogueImportSettings },
      },
    },
    async (request) => {
      await service.checkAccess(callerOf(request), request.params.supplierBusinessPartnerNo);
      return service.settings(request.params.supplierBusinessPartnerNo);
    },
  );

  app.put(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImportSettings',
    {
      config: { roles: [Role.Administrator] },
      schema: {
        tags: ['Katalogimport'],
        summary: 'Grenzwerte eines Gesamtkatalogs ändern (Administratoren)',
        params: SupplierParams,
        body: CatalogueImportSettings,
        response: { 200: CatalogueImportSettings },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await service.checkAccess(caller, request.params.supplierBusinessPartnerNo);
      return service.saveSettings(caller, request.params.supplierBusinessPartnerNo, request.body);
    },
  );
}
