import {
  DashboardBySellerQuery,
  DashboardFigure,
  DashboardQuery,
  DashboardTopSuppliers,
  DashboardTopSuppliersQuery,
  Role,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { withCancellableClient } from './cancellable.ts';
import { computeFigure, topSuppliers, type Figure } from './dashboard.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator];

const figures: { path: string; figure: Figure; summary: string }[] = [
  { path: 'SupplierOrdersCount', figure: 'count', summary: 'Anzahl Lieferantenbestellungen' },
  { path: 'SupplierOrdersSla', figure: 'sla', summary: 'SLA: Anteil im Zeitfenster bestätigter Bestellungen (%)' },
  { path: 'SupplierOrdersSumNetValue', figure: 'sum', summary: 'Summe der Nettowerte' },
  { path: 'SupplierOrdersAvgNetValue', figure: 'avg', summary: 'Durchschnittlicher Nettowert' },
];

export async function dashboardRoutes(app: App, { pool }: AppDeps) {
  for (const { path, figure, summary } of figures) {
    app.get(
      `/v1/Dashboard/${path}`,
      {
        config: { roles: staff },
        schema: {
          tags: ['Dashboard'],
          summary: `${summary} (alle Lieferanten)`,
          querystring: DashboardQuery,
          response: { 200: DashboardFigure },
        },
      },
      async (request, reply) =>
        withCancellableClient(pool, reply, (client) =>
          computeFigure(client, {
            figure,
            start: request.query.StartDate,
            end: request.query.EndDate,
            grouping: request.query.Grouping,
            statusId: request.query.StatusId,
          }),
        ),
    );

    app.get(
      `/v1/Dashboard/${path}BySeller`,
      {
        config: { roles: staff },
        schema: {
          tags: ['Dashboard'],
          summary: `${summary} (ein Lieferant)`,
          querystring: DashboardBySellerQuery,
          response: { 200: DashboardFigure },
        },
      },
      async (request, reply) =>
        withCancellableClient(pool, reply, (client) =>
          computeFigure(client, {
            figure,
            start: request.query.StartDate,
            end: request.query.EndDate,
            grouping: request.query.Grouping,
            statusId: request.query.StatusId,
            supplierBpNumber: request.query.SupplierBpNumber,
          }),
        ),
    );
  }

  app.get(
    '/v1/Dashboard/TopSuppliers',
    {
      config: { roles: staff },
      schema: {
        tags: ['Dashboard'],
        summary: 'Die 10 Lieferanten mit dem höchsten Nettowert und ihre SLA',
        querystring: DashboardTopSuppliersQuery,
        response: { 200: DashboardTopSuppliers },
      },
    },
    async (request, reply) =>
      withCancellableClient(pool, reply, (client) =>
        topSuppliers(client, {
          start: request.query.StartDate,
          end: request.query.EndDate,
          statusId: request.query.StatusId,
        }),
      ),
  );
}
