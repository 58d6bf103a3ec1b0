import { z } from 'zod';
import { CustomerOrderDetails, CustomerOrderList, OrderListQuery, Role, SupplierOrderDetails, SupplierOrderList, isStaff } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { notFound } from '../../http/problem.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { customerOrderDetails, listCustomerOrders, listSupplierOrders, supplierOrderByNumber } from './orders.repo.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const OrderNumber = z.string().min(1).max(40);

export async function ordersRoutes(app: App, { db }: AppDeps) {
  app.get('/v1/CustomerOrders', {
    config: { roles: [Role.Buyer] },
    schema: { tags: ['Bestellungen'], summary: 'Bestellungen des aktuellen Geschäftspartners', querystring: OrderListQuery, response: { 200: CustomerOrderList } },
  }, async (request) => listCustomerOrders(db, { buyerBpNumber: currentPartnerOf(request), year: request.query.Year, page: request.query.Page, pageSize: request.query.PageSize }));

  app.get('/v1/CustomerOrders/:customerOrderNumber/Details', {
    config: { roles: [Role.Buyer, ...staff] },
    schema: { tags: ['Bestellungen'], summary: 'Bestellung mit Lieferantenbestellungen und Positionen', params: z.object({ customerOrderNumber: OrderNumber }), response: { 200: CustomerOrderDetails } },
  }, async (request) => {
    const caller = callerOf(request);
    const details = await customerOrderDetails(db, request.params.customerOrderNumber, isStaff(caller.role) ? undefined : currentPartnerOf(request));
    if (!details) throw notFound('Bestellung nicht gefunden');
    return details;
  });

  app.get('/v1/PlatformOperator/CustomerOrders', {
    config: { roles: staff },
    schema: {
      tags: ['Bestellungen'], summary: 'Alle Kundenbestellungen (Mitarbeiter)',
      querystring: OrderListQuery.extend({ BuyerName: z.string().max(200).optional(), CustomerOrderStatusId: z.coerce.number().int().min(1).max(6).optional() }),
      response: { 200: CustomerOrderList },
    },
  }, async (request) => {
    const q = request.query;
    return listCustomerOrders(db, { year: q.Year, buyerName: q.BuyerName || undefined, statusId: q.CustomerOrderStatusId, page: q.Page, pageSize: q.PageSize });
  });

  app.get('/v1/PlatformOperator/CustomerOrders/:customerOrderNumber', {
    config: { roles: staff },
    schema: { tags: ['Bestellungen'], summary: 'Eine Kundenbestellung (Mitarbeiter)', params: z.object({ customerOrderNumber: OrderNumber }), response: { 200: CustomerOrderDetails } },
  }, async (request) => {
    const details = await customerOrderDetails(db, request.params.customerOrderNumber);
    if (!details) throw notFound('Bestellung nicht gefunden');
    return details;
  });

  app.get('/v1/PlatformOperator/SupplierOrders', {
    config: { roles: staff },
    schema: {
      tags: ['Bestellungen'], summary: 'Alle Lieferantenbestellungen (Mitarbeiter)',
      querystring: OrderListQuery.extend({
        BuyerName: z.string().max(200).optional(), SupplierId: z.string().max(20).optional(),
        SupplierOrderStatusId: z.coerce.number().int().min(1).max(6).optional(),
      }),
      response: { 200: SupplierOrderList },
    },
  }, async (request) => {
    const q = request.query;
    return listSupplierOrders(db, { supplierBpNumber: q.SupplierId || undefined, year: q.Year, buyerName: q.BuyerName || undefined, statusId: q.SupplierOrderStatusId, page: q.Page, pageSize: q.PageSize });
  });

  app.get('/v1/PlatformOperator/SupplierOrders/:supplierOrderNumber', {
    config: { roles: staff },
    schema: { tags: ['Bestellungen'], summary: 'Eine Lieferantenbestellung (Mitarbeiter)', params: z.object({ supplierOrderNumber: OrderNumber }), response: { 200: SupplierOrderDetails } },
  }, async (request) => {
    const details = await supplierOrderByNumber(db, request.params.supplierOrderNumber);
    if (!details) throw notFound('Bestellung nicht gefunden');
    return details;
  });

  app.get('/v1/SupplierOrders/:supplierOrderNumber/lines/:lineId/attachments/:id', {
    config: { roles: [Role.Buyer, Role.Seller, ...staff] },
    schema: {
      tags: ['Bestellungen'], summary: 'Anhang einer Bestellposition herunterladen',
      params: z.object({ supplierOrderNumber: OrderNumber, lineId: z.coerce.number().int().positive().max(2 ** 53), id: z.coerce.number().int().positive().max(2 ** 53) }),
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    // Buyers see their partner's orders, sellers their supplier's, staff all.
    const scope = isStaff(caller.role) ? '' : caller.role === Role.Seller ? 'AND so.supplier_bp_number = $4' : 'AND so.buyer_bp_number = $4';
    const params: unknown[] = [request.params.id, request.params.lineId, request.params.supplierOrderNumber];
    if (scope) params.push(currentPartnerOf(request));
    const { rows } = await db.$client.query<{ file_name: string; content_type: string; content: Buffer }>(
      `SELECT a.file_name, a.content_type, a.content FROM order_line_attachments a JOIN order_lines l ON l.id = a.order_line_id
         JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE a.id = $1 AND l.id = $2 AND so.supplier_order_number = $3 ${scope}`, params);
    if (!rows[0]) throw notFound('Anhang nicht gefunden');
    return reply.header('content-type', rows[0].content_type).header('content-disposition', attachmentHeader(rows[0].file_name)).send(rows[0].content);
  });
}
