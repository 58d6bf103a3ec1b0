import rateLimit, { type CreateRateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { securityProblemTypes, securityTexts } from '@shk/contracts';
import { HttpProblem } from './problem.ts';

/**
 * @fastify/rate-limit for the whole app, off by default: a route opts in with `config.rateLimit`
 * (e.g. `mailSendingLimit`) or uses `app.createRateLimit` (the login throttle). Exceeding a limit
 * is a 429 problem with a German text and Retry-After. app.ts registers it first with the PostgreSQL store
 * (modules/cluster/rate-limit-store.ts), so a limit holds for all nodes together; later calls find it registered.
 */
export async function registerRateLimiting(app: FastifyInstance, store?: RateLimitPluginOptions['store']) {
  if (app.hasDecorator('createRateLimit')) return;
  await app.register(rateLimit, {
    global: false,
    ...(store ? { store } : {}),
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(429, securityTexts.tooManyRequestsTitle, {
        type: securityProblemTypes.tooManyRequests,
        detail: securityTexts.tooManyRequestsDetail(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
}

const perUser = (request: FastifyRequest) => (request.caller ? `user:${request.caller.userId}` : `ip:${request.ip}`);

/**
 * Pre-handler for calls that send mail on the caller's behalf (support requests, relation requests,
 * notifications): 5 per user and hour, so the portal cannot be used to flood a mailbox.
 * Usage: `preHandler: await mailSendingLimit(app, 'support')` (each name counts on its own).
 */
export async function mailSendingLimit(app: FastifyInstance, name: string): Promise<preHandlerAsyncHookHandler> {
  await registerRateLimiting(app);
  const limit = app.createRateLimit(
    named(`mail-sending:${name}`, { max: 5, timeWindow: 60 * 60_000, keyGenerator: perUser }),
  );
  return async (request, reply) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(Math.ceil(result.ttlInSeconds)));
      throw new HttpProblem(429, securityTexts.tooManyRequestsTitle, {
        type: securityProblemTypes.tooManyRequests,
        detail: securityTexts.tooManyRequestsDetail(Math.max(1, Math.ceil(result.ttlInSeconds))),
      });
    }
  };
}

/** A limiter's options with the name its counters are kept under in PostgreSQL (shared by every node). */
export function named(nameSpace: string, options: CreateRateLimitOptions): CreateRateLimitOptions {
  return { ...options, nameSpace } as CreateRateLimitOptions;
}
