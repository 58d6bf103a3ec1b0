import { z } from 'zod';
import {
  CreateRelationRequest,
  PagedRelations,
  RelationStatusChange,
  Role,
  SupplierCustomerNumberParam,
  SupplierCustomerRelation,
  SupplierSummary,
  UpdateRelationRequest,
  allRelationStatuses,
  defaultRelationStatuses,
  isStaff,
  limits,
  IdParams,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { mailSendingLimit } from '../../http/rate-limits.ts';
import { RelationsService, canSeeRelation, relationShownTo } from './relations.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;

/** What the relation lists read (kept by the read-model cache until one of them changes). */
const relationTables = ['supplier_customers', 'business_partners', 'suppliers'] as const;

/**
 * Status filters accept numeric values only (comma-separated or repeated) and fall back to the
 * defaults when nothing valid remains (seller-staff-side.md §4).
 */
export function parseStatusFilter(raw: unknown, allowed: readonly number[], fallback: readonly number[]): number[] {
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) =>
    typeof v === 'string' ? v.split(',') : typeof v === 'number' ? [String(v)] : [],
  );
  const picked = parts
    .map((p) => p.trim())
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((n) => allowed.includes(n));
  return picked.length && parts.every((p) => /^\d+$/.test(p.trim())) ? [...new Set(picked)] : [...fallback];
}

const ListQuery = z.object({
  RelationStatusIds: z.union([z.string(), z.array(z.string())]).optional(),
  SupplierStatusIds: z.union([z.string(), z.array(z.string())]).optional(),
  Name: z.string().max(200).optional(),
  PageSize: z.coerce.number().int().min(1).max(limits.platformOperatorRelationPageSize).default(100),
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export async function relationsRoutes(app: App, { db, mail }: AppDeps) {
  const service = new RelationsService(db, mail);
  const visibleTo = (request: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(request);
    return (relation: SupplierCustomerRelation) => canSeeRelation(caller, relation, isStaff(caller.role));
  };

  app.get(
    '/v1/SupplierCustomers',
    {
      config: { ids: 'allowed', roles: [Role.Buyer, Role.Seller], readModel: { tables: relationTables } },
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Beziehungen des aktuellen Geschäftspartners (Käufer: Lieferanten, Verkäufer: Kunden)',
        querystring: ListQuery,
        response: { 200: PagedRelations },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const bp = currentPartnerOf(request);
      const q = request.query;
      const supplierStatusIds =
        q.SupplierStatusIds === undefined ? undefined : parseStatusFilter(q.SupplierStatusIds, [1, 2, 3], [1, 2, 3]);
      const page = await service.list({
        ...(caller.role === Role.Buyer ? { buyerBpNumber: bp } : { supplierBpNumber: bp }),
        statusIds: parseStatusFilter(q.RelationStatusIds, defaultRelationStatuses, defaultRelationStatuses),
        supplierStatusIds,
        search: q.Name?.trim() || undefined,
        searchSide: caller.role === Role.Buyer ? 'supplier' : 'buyer',
        page: q.Page,
        pageSize: q.PageSize,
        order: caller.role === Role.Buyer ? 'status-then-supplier' : 'buyer',
      });
      return { ...page, items: page.items.map((relation) => relationShownTo(caller, relation)) };
    },
  );

  app.get(
    '/v1/SupplierCustomers/SuppliersWithoutRelation',
    {
      config: { ids: 'allowed', roles: [Role.Buyer], readModel: { tables: relationTables } },
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Lieferanten ohne Beziehung zum aktuellen Geschäftspartner',
        response: { 200: z.array(SupplierSummary) },
      },
    },
    async (request) => service.suppliersWithoutRelation(currentPartnerOf(request)),
  );

  // Relation requests mail the supplier on the buyer's behalf: limited like every mail-sending call.
  const requestMails = await mailSendingLimit(app, 'relation-requests');
  const changeMails = await mailSendingLimit(app, 'relation-changes');
  const buyerChangeMails: typeof changeMails = async function (request, reply) {
    if (callerOf(request).role === Role.Buyer) await changeMails.call(this, request, reply);
  };

  app.post(
    '/v1/SupplierCustomers',
    {
      config: { roles: [Role.Buyer] },
      preHandler: requestMails,
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Geschäftsbeziehung bei einem Lieferanten anfragen',
        body: CreateRelationRequest,
        response: { 201: SupplierCustomerRelation.shape.supplier },
      },
    },
    async (request, reply) => {
      const relation = await service.request(callerOf(request), currentPartnerOf(request), request.body);
      return reply.status(201).send(relation.supplier);
    },
  );

  app.get(
    '/v1/SupplierCustomers/:id',
    {
      config: { ids: 'allowed', roles: [Role.Buyer, Role.Seller, ...staff] },
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Eine Geschäftsbeziehung',
        params: IdParams,
        response: { 200: SupplierCustomerRelation },
      },
    },
    async (request) => relationShownTo(callerOf(request), await service.find(request.params.id, visibleTo(request))),
  );

  app.put(
    '/v1/SupplierCustomers/:id',
    {
      config: { roles: [Role.Buyer, Role.Seller, Role.Administrator] },
      preHandler: buyerChangeMails,
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Status, Begründung oder Kundennummer ändern',
        params: IdParams,
        body: UpdateRelationRequest,
        response: { 200: SupplierCustomerRelation },
      },
    },
    async (request) =>
      relationShownTo(
        callerOf(request),
        await service.update(callerOf(request), request.params.id, request.body, visibleTo(request)),
      ),
  );

  app.put(
    '/v1/SupplierCustomers/:id/SupplierCustomerNumber/:supplierCustomerNumber',
    {
      config: { roles: [Role.Buyer, Role.Seller] },
      preHandler: buyerChangeMails,
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Kundennummer hinterlegen',
        params: z.object({ id: IdParams.shape.id, supplierCustomerNumber: SupplierCustomerNumberParam }),
        response: { 200: SupplierCustomerRelation },
      },
    },
    async (request) =>
      relationShownTo(
        callerOf(request),
        await service.setCustomerNumber(
          callerOf(request),
          request.params.id,
          request.params.supplierCustomerNumber,
          visibleTo(request),
        ),
      ),
  );

  app.get(
    '/v1/PlatformOperator/SupplierCustomers',
    {
      config: { roles: staff },
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Alle Geschäftsbeziehungen (Mitarbeiter)',
        querystring: z.object({
          CustomerBpNumber: z.string().max(20).optional(),
          SupplierBpNumber: z.string().max(20).optional(),
          RelationsStatusId: z.union([z.string(), z.array(z.string())]).optional(),
          PageSize: ListQuery.shape.PageSize,
          Page: ListQuery.shape.Page,
        }),
        response: { 200: PagedRelations },
      },
    },
    async (request) => {
      const q = request.query;
      return service.list({
        buyerBpNumber: q.CustomerBpNumber?.trim() || undefined,
        supplierBpNumber: q.SupplierBpNumber?.trim() || undefined,
        statusIds: parseStatusFilter(q.RelationsStatusId, allRelationStatuses, allRelationStatuses),
        searchSide: 'both',
        page: q.Page,
        pageSize: q.PageSize,
        order: 'supplier',
      });
    },
  );

  app.get(
    '/v1/PlatformOperator/SupplierCustomers/:id/StatusChanges',
    {
      config: { roles: staff },
      schema: {
        tags: ['Lieferantenbeziehungen'],
        summary: 'Verlauf der Statusänderungen einer Beziehung',
        params: IdParams,
        response: { 200: z.array(RelationStatusChange) },
      },
    },
    async (request) => service.statusChanges(request.params.id),
  );
}
