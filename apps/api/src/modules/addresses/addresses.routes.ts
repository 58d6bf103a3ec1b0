import { z } from 'zod';
import { DeliveryAddress, DeliveryAddressInput, IdParams, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { currentPartnerOf } from '../../http/auth.ts';
import { AddressesService } from './addresses.service.ts';

export async function addressesRoutes(app: App, { db }: AppDeps) {
  const addresses = new AddressesService(db);
  const buyer = [Role.Buyer] as const;

  app.get(
    '/v1/DeliveryAddresses',
    {
      config: { ids: 'allowed', roles: buyer },
      schema: {
        tags: ['Lieferadressen'],
        summary: 'Lieferadressen des aktuellen Geschäftspartners',
        response: { 200: z.array(DeliveryAddress) },
      },
    },
    async (request) => addresses.list(currentPartnerOf(request)),
  );

  app.post(
    '/v1/DeliveryAddresses',
    {
      config: { roles: buyer },
      schema: {
        tags: ['Lieferadressen'],
        summary: 'Lieferadresse anlegen',
        body: DeliveryAddressInput,
        response: { 201: DeliveryAddress },
      },
    },
    async (request, reply) => reply.status(201).send(await addresses.create(currentPartnerOf(request), request.body)),
  );

  app.put(
    '/v1/DeliveryAddresses/:id',
    {
      config: { roles: buyer },
      schema: {
        tags: ['Lieferadressen'],
        summary: 'Lieferadresse ändern',
        params: IdParams,
        body: DeliveryAddressInput,
        response: { 200: DeliveryAddress },
      },
    },
    async (request) => addresses.update(currentPartnerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/DeliveryAddresses/:id',
    {
      config: { roles: buyer },
      schema: {
        tags: ['Lieferadressen'],
        summary: 'Lieferadresse löschen',
        params: IdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await addresses.remove(currentPartnerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
