import { z } from 'zod';
import {
  CreateRelationRequest, PagedRelations, RelationStatusChange, Role, SupplierCustomerNumberParam, SupplierCustomerRelation,
  SupplierSummary, UpdateRelationRequest, allRelationStatuses, defaultRelationStatuses, isStaff, limits,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { notFound } from '../../http/problem.ts';
import { findRelation, listRelations, listStatusChanges } from './relations.repo.ts';
import { RelationsService, canSeeRelation } from './relations.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;

/**
 * Status filters accept numeric values only (comma-separated or repeated) and fall back to the
 * defaults when nothing valid remains (seller-staff-side.md §4).
 */
export function parseStatusFilter(raw: unknown, allowed: readonly number[], fallback: readonly number[]): number[] {
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : typeof v === 'number' ? [String(v)] : []));
  const picked = parts.map((p) => p.trim()).filter((p) => /^\d+$/.test(p)).map(Number).filter((n) => allowed.includes(n));
  return picked.length && parts.every((p) => /^\d+$/.test(p.trim())) ? [...new Set(picked)] : [...fallback];
}

const ListQuery = z.object({
  RelationStatusIds: z.union([z.string(), z.array(z.string())]).optional(),
  SupplierStatusIds: z.union([z.string(), z.array(z.string())]).optional(),
  Name: z.string().max(200).optional(),
  PageSize: z.coerce.number().int().min(1).max(limits.platformOperatorRelationPageSize).default(100),
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
});

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2 ** 53) });

export async function relationsRoutes(app: App, { db, mail }: AppDeps) {
  const service = new RelationsService(db, mail);
  const visibleTo = (request: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(request);
    return (relation: SupplierCustomerRelation) => canSeeRelation(caller, relation, isStaff(caller.role));
  };

  app.get('/v1/SupplierCustomers', {
    config: { roles: [Role.Buyer, Role.Seller] },
    schema: {
      tags: ['Lieferantenbeziehungen'], summary: 'Beziehungen des aktuellen Geschäftspartners (Käufer: Lieferanten, Verkäufer: Kunden)',
      querystring: ListQuery, response: { 200: PagedRelations },
    },
  }, async (request) => {
    const caller = callerOf(request);
    const bp = currentPartnerOf(request);
    const q = request.query;
    const supplierStatusIds = q.SupplierStatusIds === undefined ? undefined : parseStatusFilter(q.SupplierStatusIds, [1, 2, 3], [1, 2, 3]);
    return listRelations(db, {
      ...(caller.role === Role.Buyer ? { buyerBpNumber: bp } : { supplierBpNumber: bp }),
      statusIds: parseStatusFilter(q.RelationStatusIds, defaultRelationStatuses, defaultRelationStatuses),
      supplierStatusIds,
      search: q.Name?.trim() || undefined,
      searchSide: caller.role === Role.Buyer ? 'supplier' : 'buyer',
      page: q.Page, pageSize: q.PageSize,
      order: caller.role === Role.Buyer ? 'status-then-supplier' : 'buyer',
    });
  });

  app.get('/v1/SupplierCustomers/SuppliersWithoutRelation', {
    config: { roles: [Role.Buyer] },
    schema: { tags: ['Lieferantenbeziehungen'], summary: 'Lieferanten ohne Beziehung zum aktuellen Geschäftspartner', response: { 200: z.array(SupplierSummary) } },
  }, async (request) => {
    const bp = currentPartnerOf(request);
    const { rows } = await db.$client.query(
      `SELECT b.bp_number, b.name, b.official_company_name, b.city, b.website, b.organisation_type, s.supplier_status_id, s.required_onboarding_form
         FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number
        WHERE b.is_supplier AND s.supplier_status_id <> 2
          AND NOT EXISTS (SELECT 1 FROM supplier_customers r WHERE r.supplier_bp_number = s.bp_number AND r.buyer_bp_number = $1)
        ORDER BY b.name`, [bp]);
    return rows.map((r) => ({
      bpNumber: r.bp_number, name: r.name, officialCompanyName: r.official_company_name, city: r.city, website: r.website,
      supplierStatusId: r.supplier_status_id, organisationType: r.organisation_type, requiredOnboardingForm: r.required_onboarding_form,
    }));
  });

  app.post('/v1/SupplierCustomers', {
    config: { roles: [Role.Buyer] },
    schema: { tags: ['Lieferantenbeziehungen'], summary: 'Geschäftsbeziehung bei einem Lieferanten anfragen', body: CreateRelationRequest, response: { 201: SupplierCustomerRelation.shape.supplier } },
  }, async (request, reply) => {
    const relation = await service.request(callerOf(request), currentPartnerOf(request), request.body);
    return reply.status(201).send(relation.supplier);
  });

  app.get('/v1/SupplierCustomers/:id', {
    config: { roles: [Role.Buyer, Role.Seller, ...staff] },
    schema: { tags: ['Lieferantenbeziehungen'], summary: 'Eine Geschäftsbeziehung', params: IdParams, response: { 200: SupplierCustomerRelation } },
  }, async (request) => {
    const relation = await findRelation(db, request.params.id);
    if (!relation || !visibleTo(request)(relation)) throw notFound('Geschäftsbeziehung nicht gefunden');
    return relation;
  });

  app.put('/v1/SupplierCustomers/:id', {
    config: { roles: [Role.Buyer, Role.Seller, Role.Administrator] },
    schema: { tags: ['Lieferantenbeziehungen'], summary: 'Status, Begründung oder Kundennummer ändern', params: IdParams, body: UpdateRelationRequest, response: { 200: SupplierCustomerRelation } },
  }, async (request) => service.update(callerOf(request), request.params.id, request.body, visibleTo(request)));

  app.put('/v1/SupplierCustomers/:id/SupplierCustomerNumber/:supplierCustomerNumber', {
    config: { roles: [Role.Buyer, Role.Seller] },
    schema: {
      tags: ['Lieferantenbeziehungen'], summary: 'Kundennummer hinterlegen',
      params: z.object({ id: IdParams.shape.id, supplierCustomerNumber: SupplierCustomerNumberParam }),
      response: { 200: SupplierCustomerRelation },
    },
  }, async (request) => service.setCustomerNumber(callerOf(request), request.params.id, request.params.supplierCustomerNumber, visibleTo(request)));

  app.get('/v1/PlatformOperator/SupplierCustomers', {
    config: { roles: staff },
    schema: {
      tags: ['Lieferantenbeziehungen'], summary: 'Alle Geschäftsbeziehungen (Mitarbeiter)',
      querystring: z.object({
        CustomerBpNumber: z.string().max(20).optional(),
        SupplierBpNumber: z.string().max(20).optional(),
        RelationsStatusId: z.union([z.string(), z.array(z.string())]).optional(),
        PageSize: ListQuery.shape.PageSize,
        Page: ListQuery.shape.Page,
      }),
      response: { 200: PagedRelations },
    },
  }, async (request) => {
    const q = request.query;
    return listRelations(db, {
      buyerBpNumber: q.CustomerBpNumber?.trim() || undefined,
      supplierBpNumber: q.SupplierBpNumber?.trim() || undefined,
      statusIds: parseStatusFilter(q.RelationsStatusId, allRelationStatuses, allRelationStatuses),
      searchSide: 'both', page: q.Page, pageSize: q.PageSize, order: 'supplier',
    });
  });

  app.get('/v1/PlatformOperator/SupplierCustomers/:id/StatusChanges', {
    config: { roles: staff },
    schema: { tags: ['Lieferantenbeziehungen'], summary: 'Verlauf der Statusänderungen einer Beziehung', params: IdParams, response: { 200: z.array(RelationStatusChange) } },
  }, async (request) => {
    if (!(await findRelation(db, request.params.id))) throw notFound('Geschäftsbeziehung nicht gefunden');
    return listStatusChanges(db, request.params.id);
  });
}
