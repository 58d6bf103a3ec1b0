import { ConfiguratorReturnRequest, ConfiguratorReturnVerified, ConfiguratorSlide, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { ConfiguratorService } from './configurator.service.ts';

/** Kitchen-manufacturer configurator: home slide with signed hand-off, verification of the return. */
export async function configuratorRoutes(app: App, { db, config }: AppDeps) {
  const service = new ConfiguratorService(db, config.publicUrl, undefined, app.readModels);

  app.get(
    '/v1/KitchenConfigurator/Slide',
    {
      config: { ids: 'allowed', roles: 'authenticated' },
      schema: {
        tags: ['Küchenkonfigurator'],
        summary: 'Konfigurator-Folie der Startseite: Sichtbarkeit und signierter Link',
        response: { 200: ConfiguratorSlide },
      },
    },
    async (request, reply) => {
      // The link carries a short-lived token: never from a cache.
      reply.header('cache-control', 'no-store');
      return service.slideFor(callerOf(request));
    },
  );

  app.post(
    '/v1/KitchenConfigurator/Return/Verify',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: {
        tags: ['Küchenkonfigurator'],
        summary: 'Signierte Rückgabe des Konfigurators prüfen (vor /add-to-cart)',
        body: ConfiguratorReturnRequest,
        response: { 200: ConfiguratorReturnVerified },
      },
    },
    async (request) => service.verifyReturn(callerOf(request), request.body),
  );
}
