import { z } from 'zod';
import {
  CustomParameter,
  CustomParameterSummary,
  CustomParameterValue,
  CustomParameterValueInput,
  Role,
  DbId,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { CustomParametersService } from './custom-parameters.service.ts';

const admin = [Role.Administrator] as const;
const tags = ['Zugeschnittene Parameter'];
const KeyParams = z.object({
  customParameterKey: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/),
});
const ValueParams = KeyParams.extend({ id: DbId });

/** /parameter: configuration parameters and their values, administrators only (§6). */
export async function customParameterRoutes(app: App, { db }: AppDeps) {
  const parameters = new CustomParametersService(db);

  app.get(
    '/v1/CustomParameter',
    {
      config: { roles: admin },
      schema: { tags, summary: 'Alle Parameter', response: { 200: z.array(CustomParameterSummary) } },
    },
    async () => parameters.list(),
  );

  app.get(
    '/v1/CustomParameter/:customParameterKey',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Ein Parameter mit seinen Werten',
        params: KeyParams,
        response: { 200: CustomParameter },
      },
    },
    async (request) => parameters.get(request.params.customParameterKey),
  );

  app.get(
    '/v1/CustomParameter/:customParameterKey/values',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Werte eines Parameters',
        params: KeyParams,
        response: { 200: z.array(CustomParameterValue) },
      },
    },
    async (request) => parameters.values(request.params.customParameterKey),
  );

  app.post(
    '/v1/CustomParameter/:customParameterKey/values',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Wert hinzufügen',
        params: KeyParams,
        body: CustomParameterValueInput,
        response: { 201: CustomParameterValue },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await parameters.add(request.params.customParameterKey, request.body)),
  );

  app.put(
    '/v1/CustomParameter/:customParameterKey/values/:id',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Wert ändern',
        params: ValueParams,
        body: CustomParameterValueInput,
        response: { 200: CustomParameterValue },
      },
    },
    async (request) => parameters.update(request.params.customParameterKey, request.params.id, request.body),
  );

  app.delete(
    '/v1/CustomParameter/:customParameterKey/values/:id',
    { config: { roles: admin }, schema: { tags, summary: 'Wert löschen', params: ValueParams } },
    async (request, reply) => {
      await parameters.remove(request.params.customParameterKey, request.params.id);
      return reply.status(204).send();
    },
  );
}
