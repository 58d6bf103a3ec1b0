import { z } from 'zod';
import {
  InboundCredentialsInfo,
  InboundCredentialsInput,
  InboundOrderResponsePage,
  InboundOrderResponsesQuery,
  Role,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { HttpProblem, unauthorized } from '../../http/problem.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { containsNul, invalidCharacters } from '../../http/input-guard.ts';
import { cleanFileName } from '../../lib/file-types.ts';
import { InboundOrdrspService } from './inbound.service.ts';
import { OrdrspPickup } from './ordrsp-pickup.ts';

const MAX_BYTES = 5 * 1024 * 1024;
/**
 * Media types of EDIFACT interchanges (RFC 1767: application/EDIFACT, application/EDI-consent; case-insensitive,
 * with or without parameters such as charset) and what generic clients send.
 */
const EDIFACT_MEDIA_TYPES = /^\s*(application\/(edifact|edi-consent|octet-stream)|text\/plain)\s*(;.*)?$/i;
const staff = [Role.Administrator, Role.Support, Role.PlatformOperator];
const tags = ['Lieferantenbestellungen'];
const Bp = z.object({ supplierBusinessPartnerNo: z.string().regex(/^\d{1,10}$/) });

/**
 * POST /inbound/ordrsp: a supplier's system delivers an order response with HTTP Basic auth (per-supplier
 * credentials, stored hashed). Machine-to-machine, so outside the bearer-token /v1 API. 200 when applied,
 * 422 with the reason when rejected (the file is kept for staff either way).
 */
export async function inboundRoutes(app: App, deps: AppDeps) {
  const service = new InboundOrdrspService(deps);
  // SFTP/FTP pick-up of ORDRSP files, run by the node's lifecycle (ORDRSP_PICKUP=off: not in this process).
  if (deps.config.ordrspPickup.enabled) {
    let pickup: OrdrspPickup | null = null;
    deps.lifecycle.provide('ORDRSP pick-up', {
      start: () => {
        pickup = new OrdrspPickup(deps, deps.config.ordrspPickup, {
          info: (obj, msg) => app.log.info(obj, msg),
          warn: (obj, msg) => app.log.warn(obj, msg),
        });
        pickup.start();
      },
      stop: () => pickup?.stop(),
    });
  }
  await app.register(async (scope) => {
    // The body is read as bytes whatever the charset parameter says: the UNB syntax identifier decides.
    for (const type of ['application/octet-stream', 'text/plain'])
      if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
    scope.addContentTypeParser(EDIFACT_MEDIA_TYPES, { parseAs: 'buffer', bodyLimit: MAX_BYTES }, (_r, body, done) =>
      done(null, body),
    );
    scope.post('/inbound/ordrsp', { schema: { hide: true } }, async (request, reply) => {
      const match = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
      const credentials = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
      // A NUL cannot be stored or looked up (Postgres 22021): bad input, not a server error.
      if (containsNul(credentials)) throw invalidCharacters('header.authorization');
      const [user, ...rest] = credentials ? credentials.split(':') : [];
      const supplier = user ? await service.authenticate(user, rest.join(':')) : null;
      if (!supplier) {
        reply.header('www-authenticate', 'Basic realm="ORDRSP"');
        throw unauthorized('Zugangsdaten für den Empfang von Auftragsbestätigungen fehlen oder sind falsch.');
      }
      if (!Buffer.isBuffer(request.body) || !request.body.length)
        throw new HttpProblem(400, 'Die Auftragsbestätigung ist leer.');
      // EDIFACT is text; a NUL would reach the order's text columns.
      if (containsNul(request.body)) throw invalidCharacters('body');
      const fileName = request.headers['x-file-name'];
      const result = await service.receive({
        supplierBpNumber: supplier,
        source: 'http',
        fileName: typeof fileName === 'string' && fileName ? cleanFileName(fileName) : null,
        content: request.body,
      });
      if (result.outcome === 'rejected') {
        request.log.warn({ supplier, reason: result.reason }, 'ORDRSP rejected');
        throw new HttpProblem(422, 'Die Auftragsbestätigung wurde nicht übernommen.', { detail: result.reason });
      }
      return reply.send({ supplierOrderNumber: result.orderNumber, outcome: 'applied' });
    });
  });

  // Staff: the received files, rejected ones with their reason ("kept for staff").
  app.get(
    '/v1/PlatformOperator/InboundOrderResponses',
    {
      config: { roles: staff },
      schema: {
        tags,
        summary: 'Empfangene Auftragsbestätigungen (ORDRSP), standardmäßig die abgelehnten mit Grund',
        querystring: InboundOrderResponsesQuery,
        response: { 200: InboundOrderResponsePage },
      },
    },
    async (request) =>
      service.list({
        outcome: request.query.Outcome,
        supplierBpNumber: request.query.SupplierId,
        page: request.query.Page,
        pageSize: request.query.PageSize,
      }),
  );

  app.get(
    '/v1/PlatformOperator/InboundOrderResponses/:id/Content',
    {
      config: { roles: staff },
      schema: {
        tags,
        summary: 'Empfangene Auftragsbestätigung als Datei',
        params: z.object({
          id: z.coerce
            .number()
            .int()
            .positive()
            .max(2 ** 53),
        }),
      },
    },
    async (request, reply) => {
      const file = await service.content(request.params.id);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', attachmentHeader(file.fileName))
        .send(file.content);
    },
  );

  // Administrators: the Basic-auth credentials of a supplier's system for POST /inbound/ordrsp.
  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/InboundCredentials',
    {
      config: { roles: staff },
      schema: {
        tags,
        summary: 'Zugangsdaten für den Empfang von Auftragsbestätigungen (ohne Passwort)',
        params: Bp,
        response: { 200: InboundCredentialsInfo },
      },
    },
    async (request) => service.credentialsOf(request.params.supplierBusinessPartnerNo),
  );

  app.put(
    '/v1/Suppliers/:supplierBusinessPartnerNo/InboundCredentials',
    {
      config: { roles: [Role.Administrator] },
      schema: {
        tags,
        summary: 'Zugangsdaten für den Empfang von Auftragsbestätigungen setzen',
        params: Bp,
        body: InboundCredentialsInput,
        response: { 200: InboundCredentialsInfo },
      },
    },
    async (request) =>
      service.setCredentialsChecked(
        request.params.supplierBusinessPartnerNo,
        request.body.username,
        request.body.password,
      ),
  );
}
