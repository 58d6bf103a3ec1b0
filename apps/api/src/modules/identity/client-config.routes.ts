import { z } from 'zod';
import type { App, AppDeps } from '../../http/types.ts';
import { SPA_CALLBACK_PATH } from './provider.ts';

export const ClientConfig = z
  .object({
    authority: z.string(),
    clientId: z.string(),
    scope: z.string(),
    callbackPath: z.string(),
  })
  .meta({ id: 'ClientConfig' });

/** What the SPA needs to sign in (read at start, so one build serves every deployment). */
export async function clientConfigRoutes(app: App, { config }: AppDeps) {
  app.get(
    '/v1/ClientConfig',
    {
      config: { roles: 'public' },
      schema: {
        tags: ['Allgemein'],
        summary: 'Anmeldekonfiguration der Oberfläche',
        security: [],
        response: { 200: ClientConfig },
      },
    },
    async () => ({
      authority: config.oidcIssuer ?? `${config.publicUrl}/auth`,
      clientId: config.oidcClientId,
      scope: config.oidcScope,
      callbackPath: SPA_CALLBACK_PATH,
    }),
  );
}
