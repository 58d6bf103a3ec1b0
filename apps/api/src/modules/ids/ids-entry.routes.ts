import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { named, registerRateLimiting } from '../../http/rate-limits.ts';
import { XMLBuilder } from 'fast-xml-parser';
import {
  IdsBadRequestCode,
  idsActions,
  idsFieldTooLargeText,
  idsSupportedVersions,
  securityProblemTypes,
  securityTexts,
  type IdsAction,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { findControlCharacters } from '../../http/input-guard.ts';
import { IDS_MAX_PART_BYTES, IdsFieldTooLarge, isWebUrl, readIdsFields, type IdsFields } from './ids-fields.ts';
import { CartRefused } from './ids-cart-parse.ts';
import { returnPageSecurityPolicy } from './return-form.ts';
import { idsAccountKey, idsErrorPage, sendIdsLocked } from './ids-login-throttle.ts';
import { LoginLocked, LoginThrottle } from '../identity/index.ts';
import type { IdsService } from './ids.service.ts';

/** 2.1–2.3 share the 2.0 cart structure and are accepted as 2.0 (docs/ids.md). */
const ACCEPTED_VERSIONS = new Set<string>([...idsSupportedVersions, '2.1', '2.2', '2.3']);

/** Login attempts per client address and customer number (brute force of pw_kunde). */
export const IDS_LOGIN_ATTEMPTS_PER_MINUTE = 30;

const xml = new XMLBuilder({ format: true });
const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Norm 5.6: what a program has to send to log in. */
export const loginInfoXml = () =>
  declaration +
  xml.build({
    Logininformationen: {
      Kundennummer_erforderlich: 'true',
      Benutzername_erforderlich: 'true',
      Passwort_erforderlich: 'true',
    },
  });

/** Norm 5.7: the versions this portal speaks. */
export const versionsXml = () =>
  declaration + xml.build({ Schnittstellenversionen: { Version: [...idsSupportedVersions] } });

declare module 'fastify' {
  interface FastifyRequest {
    idsLoginKey?: string;
  }
}

const badRequest = (reply: FastifyReply, property: string, error: string) =>
  reply.redirect(`/ids-bad-request?${new URLSearchParams({ property, error })}`, 303);

/**
 * The entry of craftsman software: POST (multipart or urlencoded) or GET /ids with the norm's fields.
 * GET /ids without them is the SPA's landing page for the one-time code.
 */
export function idsEntryRoutes(service: IdsService) {
  return async function registerIdsEntry(app: App, deps: AppDeps) {
    await app.register(async (scope) => {
      // Raw bytes: a Latin-1 cart must survive until its XML declaration is read (ids-fields.ts).
      if (scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
        scope.removeContentTypeParser('application/x-www-form-urlencoded');
      }
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 },
        (_request, body, done) => done(null, body),
      );
      await registerRateLimiting(scope);
      const checkLogin = scope.createRateLimit(
        named('ids-login', {
          max: IDS_LOGIN_ATTEMPTS_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request) => request.idsLoginKey ?? request.ip,
        }),
      );
      // Failed IDS logins per account and address and per address, in PostgreSQL like the portal's sign-in.
      const throttle = new LoginThrottle(deps.pool, 'ids');

      const spaIndex = path.join(deps.config.webDistDir, 'index.html');
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        let fields: IdsFields;
        try {
          fields = await readIdsFields(request);
        } catch (error) {
          if (!(error instanceof IdsFieldTooLarge) && (error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE')
            throw error;
          // The craftsman's browser posted a form: a German page, not a JSON problem; nothing is stored.
          return idsErrorPage(reply, 413, 'Anfrage zu groß', idsFieldTooLargeText(IDS_MAX_PART_BYTES / 1024 / 1024));
        }
        // The body is read here (raw bytes, multipart), not by the input guard: a NUL would reach Postgres (500).
        const nul = findControlCharacters(fields, 'body');
        if (nul.length) {
          throw new HttpProblem(400, securityTexts.invalidCharactersTitle, {
            type: securityProblemTypes.invalidCharacters,
            detail: securityTexts.invalidCharactersDetail,
            errors: nul,
          });
        }
        const action = (fields.action ?? '').trim().toLowerCase();
        const landing =
          request.method === 'GET' && (!action || new URLSearchParams(request.raw.url?.split('?')[1]).has('code'));
        if (landing) {
          // The SPA's /ids page (code exchange) is served like every client route.
          if (fs.existsSync(spaIndex)) return reply.type('text/html; charset=utf-8').send(fs.readFileSync(spaIndex));
          return reply.type('text/html; charset=utf-8').send('<!doctype html><title>IDS</title>');
        }
        if (action === 'li') return reply.type('application/xml; charset=utf-8').send(loginInfoXml());
        if (action === 'sv') return reply.type('application/xml; charset=utf-8').send(versionsXml());
        if (!action) return badRequest(reply, 'action', IdsBadRequestCode.NotEmpty);
        if (!idsActions.includes(action as IdsAction))
          return badRequest(reply, 'action', IdsBadRequestCode.ValueNotInRange);
        const version = (fields.version ?? '').trim();
        if (!version) return badRequest(reply, 'version', IdsBadRequestCode.NotEmpty);
        if (!ACCEPTED_VERSIONS.has(version)) return badRequest(reply, 'version', IdsBadRequestCode.ValueNotInRange);
        if (fields.hookurl && !isWebUrl(fields.hookurl)) {
          return badRequest(reply, 'hookurl', IdsBadRequestCode.UrlSchemeNotAllowed);
        }

        // Rate limits (German page, 429): requests per address and customer number, and failed logins per
        // account (any address) and per address (any account) – see ids-login-throttle.ts.
        request.idsLoginKey = `${request.ip}|${(fields.kndnr ?? '').toLowerCase()}`;
        const limit = await checkLogin(request);
        if (!limit.isAllowed && limit.isExceeded) return sendIdsLocked(reply, limit.ttlInSeconds);
        const account = idsAccountKey(fields);
        try {
          await throttle.check(account, request.ip);
        } catch (error) {
          if (error instanceof LoginLocked) return sendIdsLocked(reply, error.retryAfterSeconds);
          throw error;
        }
        const user = await service.authenticate(fields);
        if (!user) {
          await throttle.failed(account, request.ip);
          return reply.redirect('/unauthorized', 303);
        }
        await throttle.succeeded(account, request.ip);

        let created: { contextId: string; itemsCount: number };
        try {
          created = await service.createContext(user, action, version, fields);
        } catch (error) {
          if (!(error instanceof CartRefused)) throw error;
          request.log.warn({ reason: error.reason }, 'IDS cart refused');
          const code =
            error.reason === 'doctype' ? IdsBadRequestCode.DoctypeNotAllowed : IdsBadRequestCode.CartTooComplex;
          return badRequest(reply, 'warenkorb', code);
        }
        const { contextId, itemsCount } = created;
        const code = await service.issueCode(contextId);
        const query = new URLSearchParams({ code, contextId, action });
        if (fields.searchterm) query.set('searchterm', fields.searchterm);
        if (action === 'adl') {
          const target = await service.deepLinkTarget(user.bpNumber, fields.ghnummer ?? fields.artikelnr ?? null);
          if (target) {
            query.set('productId', target.productId);
            query.set('productInstanceId', target.productInstanceId);
            query.set('articleNumber', target.articleNumber);
          } else if (fields.ghnummer ?? fields.artikelnr) {
            query.set('articleNumber', (fields.ghnummer ?? fields.artikelnr)!);
          }
        }
        if (action === 'wks') query.set('itemsCount', String(itemsCount));
        return reply.redirect(`/ids?${query}`, 303);
      };

      // The return page: opened by the browser on our origin, posts the cart to the hook URL (docs/ids.md).
      scope.get<{ Params: { code: string } }>(
        '/ids/return/:code',
        { schema: { hide: true } },
        async (request, reply) => {
          const page = await service.takeReturnPage(request.params.code);
          if (!page) return reply.redirect('/ids?code=', 303);
          // The program may show the return inside its own frame.
          reply.removeHeader('x-frame-options');
          reply.raw.removeHeader('x-frame-options');
          return reply
            .header('content-security-policy', returnPageSecurityPolicy(page.hook_url))
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(page.return_html);
        },
      );
      scope.post('/ids', { schema: { hide: true } }, handler);
      scope.get('/ids', { schema: { hide: true } }, handler);
    });
  };
}
