import type { FastifyReply, FastifyRequest } from 'fastify';
import { named, registerRateLimiting } from '../../http/rate-limits.ts';
import {
  PUNCHOUT_MAX_BODY_BYTES,
  ociFunctions,
  punchoutTexts,
  securityProblemTypes,
  securityTexts,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { findControlCharacters } from '../../http/input-guard.ts';
import { idsErrorPage, isWebUrl, returnPageSecurityPolicy, sendIdsLocked } from '../ids/index.ts';
import { LoginLocked, LoginThrottle } from '../identity/index.ts';
import { readOciFields } from './oci-fields.ts';
import { MultipartRefused, readMultipartPairs } from './oci-multipart.ts';
import { CxmlRefused, parseSetupRequest } from './cxml-parse.ts';
import { setupResponse, statusResponse } from './cxml-build.ts';
import type { OciEntry, PunchoutService } from './punchout.service.ts';

/** Login attempts per client address and user name (brute force of PASSWORD / SharedSecret), as for IDS. */
export const PUNCHOUT_LOGIN_ATTEMPTS_PER_MINUTE = 30;

declare module 'fastify' {
  interface FastifyRequest {
    punchoutLoginKey?: string;
  }
}

const XML_TYPES = ['text/xml', 'application/xml', 'application/cxml+xml'];

const sendCxml = (reply: FastifyReply, code: number, text: string, detail: string) =>
  reply
    .code(code)
    .type('text/xml; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(statusResponse(code, text, detail));

/** The form page of VALIDATE / BACKGROUND_SEARCH: read by the procurement system, posted nowhere by us. */
const sendFormPage = (reply: FastifyReply, hookUrl: string, html: string) => {
  reply.removeHeader('x-frame-options');
  reply.raw.removeHeader('x-frame-options');
  return reply
    .header('content-security-policy', returnPageSecurityPolicy(hookUrl))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
};

/**
 * The punchout entries of procurement systems (docs/punchout.md): OCI (`GET`/`POST /oci`), cXML
 * (`POST /cxml/punchout`) and the cXML StartPage (`GET /punchout/start/{code}`). Every bad input gets a German page
 * (OCI) or a cXML Status, and nothing is stored before the input is accepted.
 */
export function punchoutEntryRoutes(service: PunchoutService) {
  return async function registerPunchoutEntry(app: App, deps: AppDeps) {
    await app.register(async (scope) => {
      if (scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
        scope.removeContentTypeParser('application/x-www-form-urlencoded');
      }
      // Raw bytes: the character set is chosen from the request (oci-fields.ts).
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'buffer', bodyLimit: PUNCHOUT_MAX_BODY_BYTES },
        (_request, body, done) => done(null, body),
      );
      // SAP posts the entry form as multipart/form-data at times: read like the urlencoded form, within the same limit
      // (the upload parser of the other routes would stream it, without the 1 MB limit and its German page).
      if (scope.hasContentTypeParser('multipart/form-data')) scope.removeContentTypeParser('multipart/form-data');
      scope.addContentTypeParser(
        'multipart/form-data',
        { parseAs: 'buffer', bodyLimit: PUNCHOUT_MAX_BODY_BYTES },
        (_request, body, done) => done(null, body),
      );
      for (const type of XML_TYPES) {
        if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
      }
      scope.addContentTypeParser(
        XML_TYPES,
        { parseAs: 'buffer', bodyLimit: PUNCHOUT_MAX_BODY_BYTES },
        (_request, body, done) => done(null, body),
      );
      // Too large bodies and bodies of a type no entry reads: a German page or cXML Status instead of a JSON problem.
      scope.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
        const cxml = request.url.startsWith('/cxml');
        if (error.statusCode === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          if (cxml) return sendCxml(reply, 415, 'Unsupported Media Type', punchoutTexts.mediaTypeCxml);
          return idsErrorPage(reply, 415, punchoutTexts.badRequestTitle, punchoutTexts.mediaTypeOci);
        }
        if (error.statusCode !== 413 && error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
        if (cxml) return sendCxml(reply, 413, 'Request Entity Too Large', punchoutTexts.bodyTooLarge);
        return idsErrorPage(reply, 413, 'Anfrage zu groß', punchoutTexts.bodyTooLarge);
      });
      await registerRateLimiting(scope);
      const checkLogin = scope.createRateLimit(
        named('punchout-login', {
          max: PUNCHOUT_LOGIN_ATTEMPTS_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request) => request.punchoutLoginKey ?? request.ip,
        }),
      );
      // Failed logins counted in PostgreSQL per account+address and per address, as for the IDS entry.
      const throttle = new LoginThrottle(deps.pool, 'punchout');
      const lockedFor = async (account: string, address: string) => {
        try {
          await throttle.check(account, address);
          return 0;
        } catch (error) {
          if (error instanceof LoginLocked) return error.retryAfterSeconds;
          throw error;
        }
      };

      const oci = async (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.raw.url?.split('?')[1] ?? '';
        const body = Buffer.isBuffer(request.body) ? request.body : null;
        const contentType = request.headers['content-type'];
        const multipart = Boolean(body && /^multipart\/form-data/i.test(contentType ?? ''));
        let parts: [string, Buffer][] = [];
        if (multipart) {
          try {
            parts = await readMultipartPairs(body!, request.headers);
          } catch (error) {
            if (!(error instanceof MultipartRefused)) throw error;
            return idsErrorPage(reply, 400, punchoutTexts.badRequestTitle, punchoutTexts.multipartBroken);
          }
        }
        const { fields, charset } = readOciFields(query, multipart ? null : body, contentType, parts);
        const nul = findControlCharacters(Object.fromEntries(fields), 'body');
        if (nul.length) {
          throw new HttpProblem(400, securityTexts.invalidCharactersTitle, {
            type: securityProblemTypes.invalidCharacters,
            detail: securityTexts.invalidCharactersDetail,
            errors: nul,
          });
        }
        const bad = (text: string) => idsErrorPage(reply, 400, punchoutTexts.badRequestTitle, text);
        const hookUrl = fields.get('HOOK_URL') ?? '';
        if (!hookUrl) return bad(punchoutTexts.hookUrlMissing);
        if (!isWebUrl(hookUrl)) return bad(punchoutTexts.hookUrlScheme);
        const fn = (fields.get('FUNCTION') ?? '').toUpperCase();
        if (!(ociFunctions as readonly string[]).includes(fn))
          return bad(punchoutTexts.unknownFunction(fields.get('FUNCTION')!));
        if ((fn === 'DETAIL' || fn === 'VALIDATE') && !fields.get('PRODUCTID'))
          return bad(punchoutTexts.productIdMissing);
        if (fn === 'BACKGROUND_SEARCH' && !fields.get('SEARCHSTRING')) return bad(punchoutTexts.searchStringMissing);
        const quantity = Number((fields.get('QUANTITY') ?? '1').replace(',', '.'));

        const username = fields.get('USERNAME') ?? '';
        request.punchoutLoginKey = `${request.ip}|oci|${username.toLowerCase()}`;
        const limit = await checkLogin(request);
        if (!limit.isAllowed && limit.isExceeded) return sendIdsLocked(reply, limit.ttlInSeconds);
        const account = `oci|${username.toLowerCase()}`;
        const waitSeconds = await lockedFor(account, request.ip);
        if (waitSeconds > 0) return sendIdsLocked(reply, waitSeconds);
        const buyer = await service.authenticateOci(username, fields.get('PASSWORD') ?? '');
        if (!buyer) {
          await throttle.failed(account, request.ip);
          return idsErrorPage(reply, 401, punchoutTexts.loginFailedTitle, punchoutTexts.unknownUser);
        }
        await throttle.succeeded(account, request.ip);
        if (buyer === 'disabled')
          return idsErrorPage(reply, 403, punchoutTexts.loginFailedTitle, punchoutTexts.protocolDisabled);

        const entry: OciEntry = {
          hookUrl,
          target: fields.get('~TARGET') || null,
          okCode: fields.get('~OKCODE') || null,
          caller: fields.get('~CALLER') || null,
          fn: fn as OciEntry['fn'],
          productId: fields.get('PRODUCTID') || null,
          searchString: fields.get('SEARCHSTRING') || null,
          quantity: Number.isFinite(quantity) && quantity > 0 ? quantity : 1,
          version: (fields.get('OCI_VERSION') ?? '4.0').startsWith('5') ? '5.0' : '4.0',
          charset,
        };
        if (fn === 'VALIDATE') return sendFormPage(reply, hookUrl, await service.validate(buyer, entry));
        if (fn === 'BACKGROUND_SEARCH')
          return sendFormPage(reply, hookUrl, await service.backgroundSearch(buyer, entry));
        return reply.redirect(await service.openOci(buyer, entry), 303);
      };
      scope.get('/oci', { schema: { hide: true } }, oci);
      scope.post('/oci', { schema: { hide: true } }, oci);

      scope.post('/cxml/punchout', { schema: { hide: true } }, async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
        let setup;
        try {
          setup = parseSetupRequest(body);
        } catch (error) {
          if (!(error instanceof CxmlRefused)) throw error;
          const detail =
            error.reason === 'entities'
              ? punchoutTexts.xmlDoctypeEntities
              : error.reason === 'malformed'
                ? punchoutTexts.xmlMalformed
                : punchoutTexts.xmlNotSetupRequest;
          return sendCxml(reply, 400, 'Bad Request', detail);
        }
        if (!(['create', 'edit', 'inspect'] as string[]).includes(setup.operation))
          return sendCxml(reply, 400, 'Bad Request', punchoutTexts.operationUnknown);
        if (!setup.buyerCookie) return sendCxml(reply, 400, 'Bad Request', punchoutTexts.buyerCookieMissing);
        if (!setup.browserFormPost || !isWebUrl(setup.browserFormPost))
          return sendCxml(reply, 400, 'Bad Request', punchoutTexts.browserFormPostMissing);

        const identity = setup.from.map((f) => `${f.domain}/${f.identity}`.toLowerCase()).join(',');
        request.punchoutLoginKey = `${request.ip}|cxml|${identity}`;
        const limit = await checkLogin(request);
        if (!limit.isAllowed && limit.isExceeded)
          return sendCxml(reply, 429, 'Too Many Requests', securityTexts.loginLocked(1));
        const account = `cxml|${identity}`;
        const waitSeconds = await lockedFor(account, request.ip);
        if (waitSeconds > 0)
          return sendCxml(
            reply,
            429,
            'Too Many Requests',
            securityTexts.loginLocked(Math.max(1, Math.ceil(waitSeconds / 60))),
          );
        const buyer = await service.authenticateCxml(setup);
        if (!buyer) {
          await throttle.failed(account, request.ip);
          return sendCxml(reply, 401, 'Unauthorized', punchoutTexts.cxmlAuthFailed);
        }
        await throttle.succeeded(account, request.ip);
        if (buyer === 'disabled') return sendCxml(reply, 403, 'Forbidden', punchoutTexts.protocolDisabled);
        const start = await service.openCxml(buyer, setup);
        return reply
          .type('text/xml; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(setupResponse(`${deps.config.publicUrl}${start}`));
      });

      scope.get<{ Params: { code: string } }>(
        '/punchout/start/:code',
        { schema: { hide: true } },
        async (request, reply) => {
          const target = await service.start(request.params.code);
          if (!target) return idsErrorPage(reply, 404, punchoutTexts.badRequestTitle, punchoutTexts.startPageInvalid);
          return reply.header('cache-control', 'no-store').redirect(target, 303);
        },
      );
    });
  };
}
