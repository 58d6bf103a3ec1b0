import { z } from 'zod';
import type { App, AppDeps } from '../../http/types.ts';
import { checkDatabase } from './health.service.ts';

/**
 * Liveness (/health) and readiness (/ready: the database answers and the node is not stopping; a stopping node
 * answers 503 while it finishes its requests, so the load balancer takes it out first).
 */
export async function healthRoutes(app: App, { pool, lifecycle }: AppDeps) {
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    if (lifecycle.draining) {
      return reply
        .status(503)
        .header('connection', 'close')
        .type('application/problem+json')
        .send({ type: 'not-ready', title: 'Knoten wird beendet', status: 503 });
    }
    try {
      await checkDatabase(pool);
      return { status: 'ready' };
    } catch (error) {
      return reply
        .status(503)
        .type('application/problem+json')
        .send({ type: 'not-ready', title: 'Datenbank nicht erreichbar', status: 503, detail: String(error) });
    }
  });
  app.get(
    '/v1/Version',
    {
      config: { ids: 'allowed', roles: 'authenticated' },
      schema: { tags: ['Allgemein'], summary: 'API-Version', response: { 200: z.string() } },
    },
    async (_request, reply) => reply.type('application/json').send(JSON.stringify(apiVersion)),
  );
}

export const apiVersion = '1.14.0';
