import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { securityTexts } from '@shk/contracts';

/** Attempts per account before a temporary lockout, and its length. */
export const LOGIN_ATTEMPTS_PER_ACCOUNT = 8;
export const LOGIN_LOCKOUT_MINUTES = 15;
/** Attempts per client address (many accounts tried from one place). */
export const LOGIN_ATTEMPTS_PER_IP = 30;
export const LOGIN_IP_WINDOW_MINUTES = 10;

/** Thrown by the throttle; the login route renders it as its German page, API routes as a 429 problem. */
export class LoginLocked extends Error {
  readonly statusCode = 429;
  constructor(readonly retryAfterSeconds: number) {
    super(securityTexts.loginLocked(Math.max(1, Math.ceil(retryAfterSeconds / 60))));
  }
}

const accountOf = (request: FastifyRequest) => {
  const body = request.body as { login?: unknown; username?: unknown } | undefined;
  const login = typeof body?.login === 'string' ? body.login : typeof body?.username === 'string' ? body.username : '';
  return login.trim().toLowerCase();
};

/**
 * Pre-handlers that throttle a sign-in route (the embedded login and any other route that checks a
 * password): per account and per client address (@fastify/rate-limit, in-process store). `account`
 * reads the login name from the parsed request.
 */
export async function createLoginThrottle(
  app: FastifyInstance,
  options: { account?: (request: FastifyRequest) => string } = {},
): Promise<preHandlerAsyncHookHandler[]> {
  if (!app.hasDecorator('createRateLimit')) await app.register(rateLimit, { global: false });
  const account = options.account ?? accountOf;
  const error = (_request: FastifyRequest, context: { ttl: number }) => new LoginLocked(context.ttl / 1000);
  const perAccount = app.createRateLimit({
    max: LOGIN_ATTEMPTS_PER_ACCOUNT,
    timeWindow: LOGIN_LOCKOUT_MINUTES * 60_000,
    keyGenerator: (request) => `account:${account(request) || request.ip}`,
  });
  const perIp = app.createRateLimit({
    max: LOGIN_ATTEMPTS_PER_IP,
    timeWindow: LOGIN_IP_WINDOW_MINUTES * 60_000,
    keyGenerator: (request) => `ip:${request.ip}`,
  });
  const check =
    (limit: typeof perAccount): preHandlerAsyncHookHandler =>
    async (request, reply) => {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(Math.ceil(result.ttlInSeconds)));
        throw error(request, { ttl: result.ttl });
      }
    };
  return [check(perIp), check(perAccount)];
}
