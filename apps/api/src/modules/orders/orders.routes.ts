import { z } from 'zod';
import {
  CustomerOrderDetails,
  CustomerOrderList,
  OrderListQuery,
  Role,
  SupplierOrderDetails,
  SupplierOrderList,
  isStaff,
  DbId,
  OrderNumber,
  ReorderBody,
  ReorderResult,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { OrdersService } from './orders.service.ts';
import { ReorderService } from './reorder.service.ts';
import type { OfferCatalog } from '../carts/index.ts';
import { fileStorage } from '../storage/index.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator] as const;

export async function ordersRoutes(app: App, deps: AppDeps) {
  const { db } = deps;
  const orders = new OrdersService(db, fileStorage(deps));
  app.get(
    '/v1/CustomerOrders',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Bestellungen des aktuellen Geschäftspartners',
        querystring: OrderListQuery,
        response: { 200: CustomerOrderList },
      },
    },
    async (request) =>
      orders.customerOrders({
        buyerBpNumber: currentPartnerOf(request),
        year: request.query.Year,
        search: request.query.Search || undefined,
        page: request.query.Page,
        pageSize: request.query.PageSize,
      }),
  );

  app.get(
    '/v1/CustomerOrders/:customerOrderNumber/Details',
    {
      config: { ids: 'allowed', roles: [Role.Buyer, ...staff] },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Bestellung mit Lieferantenbestellungen und Positionen',
        params: z.object({ customerOrderNumber: OrderNumber }),
        response: { 200: CustomerOrderDetails },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return orders.customerOrder(
        request.params.customerOrderNumber,
        isStaff(caller.role) ? undefined : currentPartnerOf(request),
      );
    },
  );

  app.get(
    '/v1/CustomerOrders/:customerOrderNumber/SupplierOrders/:supplierOrderNumber/Pdf',
    {
      config: { ids: 'allowed', roles: [Role.Buyer, ...staff] },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Bestellung als PDF (dasselbe Dokument, das der Lieferant erhält)',
        params: z.object({ customerOrderNumber: OrderNumber, supplierOrderNumber: OrderNumber }),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const pdf = await orders.supplierOrderPdf(
        request.params,
        isStaff(caller.role) ? undefined : currentPartnerOf(request),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentHeader(pdf.fileName))
        .send(pdf.content);
    },
  );

  app.get(
    '/v1/PlatformOperator/CustomerOrders',
    {
      config: { roles: staff },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Alle Kundenbestellungen (Mitarbeiter)',
        querystring: OrderListQuery.extend({
          BuyerName: z.string().max(200).optional(),
          CustomerOrderStatusId: z.coerce.number().int().min(1).max(6).optional(),
        }),
        response: { 200: CustomerOrderList },
      },
    },
    async (request) => {
      const q = request.query;
      return orders.customerOrders({
        year: q.Year,
        search: q.Search || undefined,
        buyerName: q.BuyerName || undefined,
        statusId: q.CustomerOrderStatusId,
        page: q.Page,
        pageSize: q.PageSize,
      });
    },
  );

  app.get(
    '/v1/PlatformOperator/CustomerOrders/:customerOrderNumber',
    {
      config: { roles: staff },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Eine Kundenbestellung (Mitarbeiter)',
        params: z.object({ customerOrderNumber: OrderNumber }),
        response: { 200: CustomerOrderDetails },
      },
    },
    async (request) => orders.customerOrder(request.params.customerOrderNumber),
  );

  app.get(
    '/v1/PlatformOperator/SupplierOrders',
    {
      config: { roles: staff },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Alle Lieferantenbestellungen (Mitarbeiter)',
        querystring: OrderListQuery.extend({
          BuyerName: z.string().max(200).optional(),
          SupplierId: z.string().max(20).optional(),
          SupplierOrderStatusId: z.coerce.number().int().min(1).max(6).optional(),
        }),
        response: { 200: SupplierOrderList },
      },
    },
    async (request) => {
      const q = request.query;
      return orders.supplierOrders({
        supplierBpNumber: q.SupplierId || undefined,
        year: q.Year,
        buyerName: q.BuyerName || undefined,
        statusId: q.SupplierOrderStatusId,
        page: q.Page,
        pageSize: q.PageSize,
      });
    },
  );

  app.get(
    '/v1/PlatformOperator/SupplierOrders/:supplierOrderNumber',
    {
      config: { roles: staff },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Eine Lieferantenbestellung (Mitarbeiter)',
        params: z.object({ supplierOrderNumber: OrderNumber }),
        response: { 200: SupplierOrderDetails },
      },
    },
    async (request) => orders.supplierOrder(request.params.supplierOrderNumber),
  );

  app.get(
    '/v1/SupplierOrders/:supplierOrderNumber/lines/:lineId/attachments/:id',
    {
      config: { roles: [Role.Buyer, Role.Seller, ...staff] },
      schema: {
        tags: ['Bestellungen'],
        summary: 'Anhang einer Bestellposition herunterladen',
        params: z.object({
          supplierOrderNumber: OrderNumber,
          lineId: DbId,
          id: DbId,
        }),
      },
    },
    async (request, reply) => {
      const attachment = await orders.lineAttachment(
        callerOf(request),
        () => currentPartnerOf(request),
        request.params,
      );
      return reply
        .header('content-type', attachment.contentType)
        .header('content-disposition', attachmentHeader(attachment.fileName))
        .send(attachment.content);
    },
  );
}

/** 'Erneut bestellen' needs the offer catalogue (registered beside the checkout, which has it). */
export function reorderRoutes(offers: OfferCatalog) {
  return async function registerReorderRoutes(app: App, deps: AppDeps) {
    const reorder = new ReorderService(deps.db, offers, fileStorage(deps));
    app.post(
      '/v1/CustomerOrders/:customerOrderNumber/Reorder',
      {
        config: { roles: [Role.Buyer] },
        schema: {
          tags: ['Bestellungen'],
          summary: 'Erneut bestellen: die Positionen einer Bestellung in einen Warenkorb legen',
          params: z.object({ customerOrderNumber: OrderNumber }),
          body: ReorderBody,
          response: { 200: ReorderResult },
        },
      },
      async (request) =>
        reorder.reorder(callerOf(request), currentPartnerOf(request), request.params.customerOrderNumber, request.body),
    );
  };
}
