import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { APP_VERSION, problemTitles } from '@shk/contracts';
import type { AppDeps, App } from './http/types.ts';
import './http/zod-locale.ts';
import { HttpProblem, registerProblemHandlers, sendProblem } from './http/problem.ts';
import { registerInputGuard } from './http/input-guard.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerRateLimiting } from './http/rate-limits.ts';
import { createTokenVerifier, registerAuth, type GrantCheck, type TokenVerifier } from './http/auth.ts';
import { registerReadModelCache } from './http/read-model-cache.ts';
import { registerInFlightLimit } from './http/in-flight.ts';
import { modules } from './modules/index.ts';
import { postgresRateLimitStore } from './modules/cluster/index.ts';
import { GRANT_CLAIM, mountEmbeddedIdentityProvider, type EmbeddedIdentity } from './modules/identity/provider.ts';

const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,99}$/;

export interface BuildAppOptions extends AppDeps {
  /** Overrides how tokens are verified (used by tests of a second, independent issuer). */
  verify?: TokenVerifier;
  logger?: boolean | object;
}

export interface BuiltApp {
  app: App;
  identity: EmbeddedIdentity | null;
}

export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    // A caller's id is kept only when it looks like one (log injection, header splitting, huge values).
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // X-Forwarded-* only from the proxy TRUST_PROXY names; anyone else could forge the client address.
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
    // A request that reached the node before it stopped listening is answered normally while the node stops (the
    // load balancer took it out of rotation first, /ready): not a 503 the client would see as a failure.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Errors before routing (undecodable URL, over-long parameter) become problems too.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendProblem(
        reply,
        new HttpProblem(error.statusCode ?? 400, problemTitles.badRequest, {
          detail: 'Die Adresse der Anfrage ist ungültig.',
        }),
        request,
      );
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerProblemHandlers(app);
  registerInputGuard(app);
  await registerSecurityHeaders(app, config);
  // Counted in PostgreSQL: a limit holds for every node together.
  await registerRateLimiting(app, postgresRateLimitStore(options.pool));
  // JSON answers (search pages, carts, the OpenAPI document) brotli/gzip-compressed by Accept-Encoding; files keep
  // their precompressed copies (serveSpa), uploads and downloads are left alone; request bodies are not inflated.
  // Answers below 2 KiB (a cart overview, a cart change, most small objects) go uncompressed: they fit into two TCP
  // segments either way, and compressing each costs 0.2–0.4 ms of CPU (brotli sets up its window per answer).
  // An 18-bit window (256 KiB) is enough for any JSON page the API sends and halves brotli's set-up cost.
  // Answers up to 256 KiB are compressed in one call into a buffer and sent with Content-Length: streaming them (the
  // plugin's default above 8 KiB on two cores) cost a search answer (22 KB) 2–4 times the CPU of the compression
  // itself. Brotli 2 and gzip 3: a search answer in about 3.1–3.2 KB instead of 2.9 KB (brotli 4, gzip 6) for about
  // half the CPU (docs/performance.md, 'What a search answer costs to send'); 256 KiB compress in a few milliseconds.
  await app.register(compress, {
    customTypes: /^application\/(?:[\w.-]+\+)?json\b/,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
    threshold: 2048,
    syncThreshold: 256 * 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
    zlibOptions: { level: 3 },
  });

  await app.register(multipart, { limits: { fileSize: 100 * 1024 * 1024, files: 20, fields: 50, parts: 80 } });

  // Identity: the embedded provider unless an external issuer is configured.
  let identity: EmbeddedIdentity | null = null;
  let verify = options.verify;
  let grant: GrantCheck | undefined;
  if (!config.oidcIssuer) {
    identity = await mountEmbeddedIdentityProvider(app, options);
    const verifySignature = createTokenVerifier({
      issuer: identity.issuer,
      audience: config.oidcAudience,
      localJwks: identity.publicJwks,
      reloadLocalJwks: identity.reloadJwks,
      emailClaim: config.oidcEmailClaim,
    });
    // The embedded provider's tokens name their grant: a signed-out grant ends them (checked by the auth hook).
    if (!verify) {
      verify = verifySignature;
      grant = { claim: GRANT_CLAIM, active: identity.grantActive };
    }
  } else {
    verify ??= createTokenVerifier({
      issuer: config.oidcIssuer,
      audience: config.oidcAudience,
      emailClaim: config.oidcEmailClaim,
    });
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'SHK-Bestellportal API',
        version: APP_VERSION,
        description: 'B2B-Bestellportal für das SHK-Handwerk',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // Its own policy with hashes of its inline parts, instead of the portal's.
    staticCSP: true,
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerAuth(app, { db: options.db, verify, emailClaim: config.oidcEmailClaim, grant });
  registerInFlightLimit(app, config.maxRequestsInFlightPerUser);
  // Answers of routes with config.readModel kept per caller until a table they read changes (after compress, before the routes).
  registerReadModelCache(app, options.db.$client);

  for (const register of modules) await register(app, options);

  await serveSpa(app, config.webDistDir);
  return { app, identity };
}

/** Serves the built SPA; unknown non-API paths get index.html so client routes reload. */
async function serveSpa(app: App, distDir: string) {
  // Browsers ask for /favicon.ico on every page without an icon link (the provider's login page too).
  app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) => {
    const icon = path.join(distDir, 'favicon.svg');
    if (!fs.existsSync(icon)) return reply.status(204).send();
    return reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(fs.readFileSync(icon));
  });
  const index = path.join(distDir, 'index.html');
  if (!fs.existsSync(index)) return;
  // The build writes .br and .gz next to every text asset (apps/web/precompress.ts); the copy the browser
  // accepts is sent (Vary: Accept-Encoding), the plain file otherwise. Hashed files under /assets never change.
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => reply.header('cache-control', spaCacheControl(distDir, file)),
  });
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').sendFile('index.html');
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/v1/') || url.startsWith('/auth/') || path.extname(url)) {
      return reply.callNotFound();
    }
    return sendIndex(reply);
  });
}

/** Hashed build output (`/assets/*`) is cached for a year; index.html is revalidated; the rest for an hour. */
function spaCacheControl(distDir: string, file: string): string {
  const relative = path.relative(distDir, file).split(path.sep).join('/');
  if (relative.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (/^index\.html(\.(br|gz))?$/.test(relative)) return 'no-cache';
  return 'public, max-age=3600';
}
