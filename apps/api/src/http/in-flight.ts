import type { FastifyInstance } from 'fastify';
import { securityProblemTypes, securityTexts } from '@shk/contracts';
import { HttpProblem } from './problem.ts';

/**
 * Fair use of the API process: one user may have at most `max` requests in flight at once (the SPA's page loads
 * need a handful); a further one is refused at once with a German 429 problem and Retry-After, before it takes a
 * database connection. So one user firing 50 parallel writes cannot occupy the pool that every other user's requests
 * need. Counted per process (nodes share nothing but PostgreSQL): each protects its own pool.
 * Register after registerAuth, whose onRequest hook names the caller.
 */
export function registerInFlightLimit(app: FastifyInstance, max: number) {
  const inFlight = new Map<string, number>();
  app.addHook('onRequest', async (request, reply) => {
    const userId = request.caller?.userId;
    if (!userId) return;
    const running = inFlight.get(userId) ?? 0;
    if (running >= max) {
      reply.header('retry-after', '1');
      throw new HttpProblem(429, securityTexts.tooManyRequestsTitle, {
        type: securityProblemTypes.tooManyRequests,
        detail: securityTexts.tooManyInFlightDetail,
      });
    }
    inFlight.set(userId, running + 1);
    // 'close' comes once the answer is out or the client went away, whatever the route did.
    reply.raw.once('close', () => {
      const left = (inFlight.get(userId) ?? 1) - 1;
      if (left > 0) inFlight.set(userId, left);
      else inFlight.delete(userId);
    });
  });
}
