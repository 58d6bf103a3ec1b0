import { z } from 'zod';
import { fileStorage } from '../storage/index.ts';
import {
  communicationDataFormatNames,
  communicationProtocolNames,
  NamedId,
  PagedSuppliers,
  Role,
  SupplierCandidate,
  SupplierChange,
  SupplierInterfaces,
  SupplierListQuery,
  SupplierSettings,
  SupplierSettingsInput,
  supplierFileLimits,
  supplierMessages,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { notFound } from '../../http/problem.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { SuppliersService } from './suppliers.service.ts';
import { logoSizes } from './supplier-files.ts';
import { spoolSingleFile } from './upload.ts';
import { withUploadScratch } from '../../lib/uploads/spooled-upload.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const admin = [Role.Administrator] as const;
const tags = ['Lieferantenverwaltung'];
const Bp = z.object({ supplierBusinessPartnerNo: z.string().trim().min(1).max(20) });
const named = (names: Record<number, string>) => Object.entries(names).map(([id, name]) => ({ id: Number(id), name }));

/** /admin: supplier management for staff (writes: administrators only), the seller's interfaces panel. */
export async function supplierAdminRoutes(app: App, deps: AppDeps) {
  const suppliers = new SuppliersService(deps.db, fileStorage(deps));
  supplierSettingsRoutes(app, suppliers);
  supplierFileRoutes(app, suppliers, deps.config.dataDir);
}

/** The supplier list, its settings, change log and interfaces, and the names the settings form offers. */
function supplierSettingsRoutes(app: App, suppliers: SuppliersService) {
  app.get(
    '/v1/Suppliers',
    {
      config: { roles: staff },
      schema: {
        tags,
        summary: 'Lieferanten (gefiltert, sortiert, seitenweise)',
        querystring: SupplierListQuery,
        response: { 200: PagedSuppliers },
      },
    },
    async (request) => {
      const q = request.query;
      return suppliers.list({
        page: q.Page,
        pageSize: q.PageSize,
        name: q.Name || undefined,
        names: q.Names,
        statusId: q.StatusId,
        sortBy: q.SortBy,
        direction: q.SortDirection,
      });
    },
  );

  app.post(
    '/v1/Suppliers',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Lieferanten aus den Geschäftspartner-Stammdaten anlegen',
        body: SupplierSettingsInput,
        response: { 201: SupplierSettings },
      },
    },
    async (request, reply) => reply.status(201).send(await suppliers.create(callerOf(request), request.body)),
  );

  app.put(
    '/v1/Suppliers',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Lieferanteneinstellungen speichern',
        body: SupplierSettingsInput,
        response: { 200: SupplierSettings },
      },
    },
    async (request) => suppliers.update(callerOf(request), request.body),
  );

  app.get(
    '/v1/Suppliers/CommunicationProtocols',
    {
      config: { roles: [...staff, Role.Seller] },
      schema: { tags, summary: 'Kommunikationsprotokolle', response: { 200: z.array(NamedId) } },
    },
    async () => named(communicationProtocolNames),
  );

  app.get(
    '/v1/Suppliers/CommunicationDataFormats',
    {
      config: { roles: [...staff, Role.Seller] },
      schema: { tags, summary: 'Datenformate', response: { 200: z.array(NamedId) } },
    },
    async () => named(communicationDataFormatNames),
  );

  app.get(
    '/v1/Suppliers/Candidates/:supplierBusinessPartnerNo',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Prüfen, ob ein Geschäftspartner als Lieferant angelegt werden kann',
        params: Bp,
        response: { 200: SupplierCandidate },
      },
    },
    async (request) => suppliers.candidate(request.params.supplierBusinessPartnerNo),
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo',
    {
      config: { roles: staff },
      schema: { tags, summary: 'Einstellungen eines Lieferanten', params: Bp, response: { 200: SupplierSettings } },
    },
    async (request) => suppliers.get(request.params.supplierBusinessPartnerNo),
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/Changes',
    {
      config: { roles: staff },
      schema: {
        tags,
        summary: 'Änderungsprotokoll eines Lieferanten',
        params: Bp,
        response: { 200: z.array(SupplierChange) },
      },
    },
    async (request) => suppliers.changes(request.params.supplierBusinessPartnerNo),
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/Interfaces',
    {
      config: { roles: [...staff, Role.Seller] },
      schema: {
        tags,
        summary: 'Schnittstellen eines Lieferanten (Profil des Verkäufers)',
        params: Bp,
        response: { 200: SupplierInterfaces },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const bp = request.params.supplierBusinessPartnerNo;
      // A seller sees the interfaces of the supplier it works for, nothing else (another one is a 404).
      if (caller.role === Role.Seller && !caller.partners.includes(bp)) throw notFound();
      return suppliers.interfaces(bp);
    },
  );
}

/**
 * The supplier's files: its logo (public, resized) and its onboarding form template. Uploads are spooled to scratch
 * files under `dataDir` (lib/uploads/spooled-upload.ts).
 */
function supplierFileRoutes(app: App, suppliers: SuppliersService, dataDir: string) {
  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/logo',
    {
      // Public: <img> tags cannot send a bearer token, and a logo is what the supplier shows everybody.
      config: { roles: 'public' },
      schema: {
        tags,
        summary: 'Logo eines Lieferanten (verkleinert als PNG/JPEG; original=true: die hochgeladene Datei)',
        security: [],
        params: Bp,
        querystring: z.object({
          size: z.coerce
            .number()
            .int()
            .refine((n) => (logoSizes as readonly number[]).includes(n), `Erlaubt: ${logoSizes.join(', ')}`)
            .optional(),
          original: z.enum(['true', 'false']).optional(),
          v: z.coerce.number().int().optional(),
        }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const original = q.original === 'true';
      const logo = await suppliers.logo(
        request.params.supplierBusinessPartnerNo,
        original ? null : ((q.size ?? 160) as (typeof logoSizes)[number]),
      );
      const etag = `"logo-${request.params.supplierBusinessPartnerNo}-${logo.version}-${original ? 'o' : (q.size ?? 160)}"`;
      reply
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff')
        // A versioned URL never changes its content; an unversioned one is revalidated.
        .header('cache-control', q.v === logo.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      if (original) {
        reply
          .header('content-disposition', attachmentHeader(logo.fileName))
          .header('content-security-policy', "default-src 'none'; sandbox");
      }
      return reply.header('content-type', logo.contentType).send(logo.body);
    },
  );

  app.post(
    '/v1/Suppliers/:supplierBusinessPartnerNo/logo',
    {
      config: { roles: admin, forbiddenDetail: supplierMessages.notAuthorised },
      schema: {
        tags,
        summary: 'Logo hochladen (multipart, Feld file; svg, png, jpg, jpeg; max. 1 MB)',
        consumes: ['multipart/form-data'],
        params: Bp,
        response: { 200: SupplierSettings },
      },
    },
    async (request) => {
      const { maxBytes, maxMb } = supplierFileLimits.logo;
      return withUploadScratch(dataDir, async (dir) => {
        const file = await spoolSingleFile(request, dir, maxBytes, maxMb);
        return suppliers.uploadLogo(callerOf(request), request.params.supplierBusinessPartnerNo, file);
      });
    },
  );

  app.delete(
    '/v1/Suppliers/:supplierBusinessPartnerNo/logo',
    {
      config: { roles: admin, forbiddenDetail: supplierMessages.notAuthorised },
      schema: { tags, summary: 'Logo entfernen', params: Bp },
    },
    async (request, reply) => {
      await suppliers.deleteLogo(callerOf(request), request.params.supplierBusinessPartnerNo);
      return reply.status(204).send();
    },
  );

  app.post(
    '/v1/SupplierOnboardingFormTemplates/:bpNumber',
    {
      config: { roles: admin, forbiddenDetail: supplierMessages.notAuthorised },
      schema: {
        tags,
        summary: 'Neukundenformular hochladen (multipart, Feld file; PDF, max. 25 MB)',
        consumes: ['multipart/form-data'],
        params: z.object({ bpNumber: z.string().trim().min(1).max(20) }),
        response: { 200: SupplierSettings },
      },
    },
    async (request) => {
      const { maxBytes, maxMb } = supplierFileLimits.template;
      return withUploadScratch(dataDir, async (dir) => {
        const file = await spoolSingleFile(request, dir, maxBytes, maxMb);
        return suppliers.uploadTemplate(callerOf(request), request.params.bpNumber, file);
      });
    },
  );

  app.delete(
    '/v1/SupplierOnboardingFormTemplates/:bpNumber',
    {
      config: { roles: admin, forbiddenDetail: supplierMessages.notAuthorised },
      schema: {
        tags,
        summary: 'Neukundenformular entfernen',
        params: z.object({ bpNumber: z.string().trim().min(1).max(20) }),
      },
    },
    async (request, reply) => {
      await suppliers.deleteTemplate(callerOf(request), request.params.bpNumber);
      return reply.status(204).send();
    },
  );
}
