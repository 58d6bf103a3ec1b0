import { z } from 'zod';
import type { App, AppDeps } from '../../http/types.ts';
import { notFound } from '../../http/problem.ts';
import { readConfiguration } from './settings.service.ts';

const ConfigurationValue = z
  .object({ key: z.string(), value: z.string().nullable(), values: z.array(z.string()) })
  .meta({ id: 'ConfigurationValue' });

export async function settingsRoutes(app: App, { db }: AppDeps) {
  app.get(
    '/v1/ConfigurationValues/:key',
    {
      config: {
        ids: 'allowed',
        roles: 'authenticated',
        readModel: { tables: ['custom_parameters', 'custom_parameter_values'] },
      },
      schema: {
        tags: ['Konfiguration'],
        summary: 'Aktueller Wert eines Konfigurationsschlüssels',
        params: z.object({
          key: z
            .string()
            .min(1)
            .max(100)
            .regex(/^[A-Za-z0-9_.-]+$/),
        }),
        response: { 200: ConfigurationValue },
      },
    },
    async (request) => {
      const setting = await readConfiguration(db, request.params.key);
      // Non-public values (e.g. integration client secrets) never leave the server through this call.
      if (!setting || !setting.isPublic) throw notFound('Konfigurationswert nicht gefunden');
      return { key: setting.key, value: setting.value, values: setting.values };
    },
  );
}
