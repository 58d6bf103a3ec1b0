import { z } from 'zod';
import { OrderNumber, ResendRequest, Role, SupplierOrderTransmissions, Workflow, WorkflowQuery } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { listTransmissions, resendSupplierOrder } from './transmission.service.ts';
import type { WorkflowsService } from './workflows.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator];
const Params = z.object({ supplierOrderNumber: OrderNumber });

export function transmissionRoutes(workflows: () => WorkflowsService, onResend: () => void) {
  return async (app: App, { db }: AppDeps) => {
    app.post(
      '/v1/PlatformOperator/SupplierOrders/:supplierOrderNumber/Resend',
      {
        config: { roles: staff },
        schema: {
          tags: ['Bestellübertragung'],
          summary:
            'Erneut senden: eine Bestellung mit Versandfehler erneut übertragen – über den Weg des ersten Versuchs, mit ?channel=current über die aktuellen Einstellungen des Lieferanten',
          params: Params,
          querystring: ResendRequest,
          response: { 202: SupplierOrderTransmissions },
        },
      },
      async (request, reply) => {
        const result = await resendSupplierOrder(db, request.params.supplierOrderNumber, request.query.channel);
        onResend();
        return reply.code(202).send(result);
      },
    );

    app.get(
      '/v1/PlatformOperator/SupplierOrders/:supplierOrderNumber/Transmissions',
      {
        config: { roles: staff },
        schema: {
          tags: ['Bestellübertragung'],
          summary: 'Übertragungsprotokoll einer Lieferantenbestellung (Versuche, Kanal, Zeit, Fehler)',
          params: Params,
          response: { 200: SupplierOrderTransmissions },
        },
      },
      async (request) => listTransmissions(db, request.params.supplierOrderNumber),
    );

    app.get(
      '/v1/Workflow',
      {
        config: { roles: staff },
        schema: {
          tags: ['Bestellübertragung'],
          summary: 'Verbindungsprofile (Workflows) für den Bestellversand, optional je Protokoll; ohne Geheimnisse',
          querystring: WorkflowQuery,
          response: { 200: z.array(Workflow) },
        },
      },
      async (request) => workflows().list(request.query.communicationProtocol),
    );
  };
}
