import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.ts';
import { LOGOUT_SCRIPT } from '../modules/identity/pages.ts';

/** HSTS for a portal served over TLS (also set by the identity provider's mount for its own answers). */
export const HSTS = 'max-age=31536000; includeSubDomains';

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/**
 * Security headers on every response (@fastify/helmet). Scripts only from our origin (the SPA's
 * bundles) plus the provider's one inline script by hash; styles may be inline (Mantine sets CSS
 * variables in style attributes). Framing only by our own origin: the SPA's silent token renewal
 * runs in a hidden same-origin iframe, and no other site may frame the portal. A route that other
 * sites must frame (IDS return pages) overrides it with its own `helmet` route option. A manufacturer's
 * video or help widget hosted elsewhere needs its origin in CSP_EXTERNAL_ORIGINS (docs/configurator.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: AppConfig) {
  const external = config.cspExternalOrigins;
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // 'wasm-unsafe-eval' lets the SPA compile its own WebAssembly (the barcode reader, served from our origin);
        // it allows no eval of JavaScript.
        'script-src': ["'self'", "'wasm-unsafe-eval'", scriptHash(LOGOUT_SCRIPT), ...external],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-src': ["'self'", ...external],
        'media-src': ["'self'", ...external],
        'frame-ancestors': ["'self'"],
        'form-action': ["'self'", ...(config.nodeEnv === 'development' ? ['http://localhost:5173'] : [])],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
      },
    },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only a TLS response may carry HSTS (below); over plain HTTP it is meaningless or harmful.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  const tls = config.publicUrl.startsWith('https:');
  app.addHook('onSend', async (request, reply) => {
    if (tls || request.protocol === 'https') {
      reply.header('strict-transport-security', HSTS);
    }
    // Files from the API are downloads: never rendered as a page of our origin.
    if (request.url.startsWith('/v1/') && !request.url.startsWith('/v1/docs')) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type && !/json|^text\/plain/.test(type)) {
        const disposition = String(reply.getHeader('content-disposition') ?? '');
        if (!disposition) reply.header('content-disposition', 'attachment');
        else if (/^\s*inline/i.test(disposition)) {
          reply.header('content-disposition', disposition.replace(/^\s*inline/i, 'attachment'));
        }
      }
    }
  });
}
