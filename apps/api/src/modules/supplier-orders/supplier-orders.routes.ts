import { z } from 'zod';
import {
  ConfirmationBody,
  Role,
  SupplierOrderDetails,
  SupplierOrderDocument,
  SupplierOrderOverview,
  SupplierOrderOverviewQuery,
  SupplierOrderStatusItem,
  isStaff,
  supplierOrderMessages as M,
  DbId,
  OrderNumber,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem, badRequest } from '../../http/problem.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { cleanFileName, contentTypes, extensionOf } from '../../lib/file-types.ts';
import { spoolFileParts, withUploadScratch } from '../../lib/uploads/spooled-upload.ts';
import { SupplierOrdersService } from './supplier-orders.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const tags = ['Lieferantenbestellungen'];

export async function supplierOrdersRoutes(app: App, deps: AppDeps) {
  const service = new SupplierOrdersService(deps);

  /** Sellers see their supplier's orders, buyers their partner's, staff every order. */
  const scopeOf = (request: Parameters<typeof callerOf>[0]) => {
    const role = callerOf(request).role;
    if (isStaff(role)) return {};
    return role === Role.Seller ? { supplier: currentPartnerOf(request) } : { buyer: currentPartnerOf(request) };
  };

  app.get(
    '/v1/SupplierOrders/overview',
    {
      config: { roles: [Role.Seller] },
      schema: {
        tags,
        summary: 'Bestellungen des Lieferanten (Verkäufer)',
        querystring: SupplierOrderOverviewQuery,
        response: { 200: SupplierOrderOverview },
      },
    },
    async (request) => {
      const q = request.query;
      return service.overview({
        supplierBpNumber: currentPartnerOf(request),
        status: q.Status,
        dateFrom: q.DateFrom,
        dateTo: q.DateTo,
        search: q.SearchTerm || undefined,
        page: q.Page,
        pageSize: q.PageSize,
      });
    },
  );

  app.get(
    '/v1/SupplierOrderStatuses',
    {
      config: { ids: 'allowed', roles: [Role.Seller, Role.Buyer, ...staff] },
      schema: {
        tags,
        summary: 'Status von Lieferantenbestellungen',
        response: { 200: z.array(SupplierOrderStatusItem) },
      },
    },
    async () => service.statuses(),
  );

  app.get(
    '/v1/SupplierOrders/:supplierOrderNumber/Details',
    {
      config: { roles: [Role.Seller, ...staff] },
      schema: {
        tags,
        summary: 'Lieferantenbestellung mit Positionen und Bestätigung',
        params: z.object({ supplierOrderNumber: OrderNumber }),
        response: { 200: SupplierOrderDetails },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      return service.details(request.params.supplierOrderNumber, scope.supplier);
    },
  );

  app.post(
    '/v1/SupplierOrders/:supplierOrderNumber/Confirmation/:statusId',
    {
      config: { roles: [Role.Seller] },
      schema: {
        tags,
        summary: 'Bestellung bestätigen (4 Bestätigt, 5 Mit Änderungen bestätigt)',
        params: z.object({ supplierOrderNumber: OrderNumber, statusId: z.coerce.number().int().min(0).max(100) }),
        body: ConfirmationBody.nullish(),
        response: { 200: SupplierOrderDetails },
      },
    },
    async (request) =>
      service.confirm(
        request.params.supplierOrderNumber,
        currentPartnerOf(request),
        request.params.statusId,
        request.body ?? { lines: [], addedLines: [] },
      ),
  );

  app.post(
    '/v1/SupplierOrders/:supplierOrderNumber/Attachments',
    {
      config: { roles: [Role.Seller] },
      schema: {
        tags,
        summary: 'Bestelldokumente hochladen (multipart, Feld files, mehrfach)',
        consumes: ['multipart/form-data'],
        params: z.object({ supplierOrderNumber: OrderNumber }),
        response: { 200: z.array(SupplierOrderDocument) },
      },
    },
    async (request) => {
      const id = await service.scopedId(request.params.supplierOrderNumber, scopeOf(request));
      if (!request.isMultipart()) throw badRequest('Ungültige Anfrage', 'multipart/form-data erwartet');
      const limits = await service.documentLimits();
      const partLimits = { fileSize: limits.maxMb * 1024 * 1024, files: limits.maxCount };
      // Each file goes to a scratch file on disk (never whole into memory), is checked there and streamed on.
      await withUploadScratch(deps.config.dataDir, async (dir) => {
        const uploads = await spoolFileParts(request, dir, partLimits).catch((error: { code?: string }) => {
          if (error.code !== 'FST_REQ_FILE_TOO_LARGE' && error.code !== 'FST_FILES_LIMIT') throw error;
          throw new HttpProblem(400, M.documentLimits(limits.maxCount, limits.maxMb), { type: 'documentLimits' });
        });
        // All formats are allowed (spec); the type is only used for the download header.
        const files = uploads.map((upload) => {
          const name = cleanFileName(upload.name);
          return { name, contentType: contentTypes[extensionOf(name)] ?? 'application/octet-stream', upload };
        });
        if (!files.length) throw badRequest('Ungültige Anfrage', 'Bitte wählen Sie mindestens eine Datei aus.');
        await service.addDocuments(id, files, callerOf(request).userId, limits);
      });
      return (await service.details(request.params.supplierOrderNumber, currentPartnerOf(request)))!.attachments;
    },
  );

  app.get(
    '/v1/SupplierOrders/:supplierOrderNumber/Attachments/:id',
    {
      config: { roles: [Role.Seller, Role.Buyer, ...staff] },
      schema: {
        tags,
        summary: 'Bestelldokument herunterladen',
        params: z.object({ supplierOrderNumber: OrderNumber, id: DbId }),
      },
    },
    async (request, reply) => {
      const id = await service.scopedId(request.params.supplierOrderNumber, scopeOf(request));
      const d = await service.document(id, request.params.id);
      return reply
        .header('content-type', d.contentType)
        .header('content-disposition', attachmentHeader(d.fileName))
        .send(d.content);
    },
  );

  app.delete(
    '/v1/SupplierOrders/:supplierOrderNumber/Attachments/:id',
    {
      config: { roles: [Role.Seller] },
      schema: {
        tags,
        summary: 'Bestelldokument löschen',
        params: z.object({ supplierOrderNumber: OrderNumber, id: DbId }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const id = await service.scopedId(request.params.supplierOrderNumber, scopeOf(request));
      await service.deleteDocument(id, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
