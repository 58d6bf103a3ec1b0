import { z } from 'zod';
import { PunchoutCredentials, PunchoutSessionSummary, Role, UpdatePunchoutCredentials } from '@shk/contracts';
import type { App } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import type { PunchoutService } from './punchout.service.ts';

const tags = ['Punchout'];
/** Same header as the IDS return: the SPA opens the form as the single-use page /ids/return/{code}. */
const RETURN_HEADER = 'x-ids-return-page';

export function punchoutRoutes(service: PunchoutService) {
  return async function registerPunchoutRoutes(app: App) {
    app.post(
      '/v1/Punchout/return',
      {
        config: { roles: [Role.Buyer], changesCaller: true, ids: 'allowed' },
        schema: {
          tags,
          summary: 'Warenkorb der Punchout-Sitzung in die Bestellanforderung übernehmen (OCI-Formular bzw. cXML)',
          description: 'Antwort: selbst absendendes HTML-Formular an HOOK_URL bzw. BrowserFormPost.',
          querystring: z.object({ punchoutContextId: z.string().trim().min(1).max(64).optional() }),
        },
      },
      async (request, reply) => {
        const page = await service.returnCart(callerOf(request), request.query.punchoutContextId ?? null);
        return reply.header(RETURN_HEADER, page.returnUrl).type('text/html; charset=utf-8').send(page.html);
      },
    );

    app.get(
      '/v1/PunchoutCredentials',
      {
        config: { roles: [Role.Buyer], ids: 'allowed' },
        schema: {
          tags,
          summary: 'OCI- und cXML-Zugangsdaten des Benutzers beim aktuellen Geschäftspartner',
          response: { 200: PunchoutCredentials },
        },
      },
      async (request) => service.credentials(callerOf(request), currentPartnerOf(request)),
    );

    app.put(
      '/v1/PunchoutCredentials',
      {
        config: { roles: [Role.Buyer] },
        schema: {
          tags,
          summary: 'OCI und cXML ein- oder ausschalten und Zugangsdaten setzen',
          body: UpdatePunchoutCredentials,
          response: { 200: PunchoutCredentials },
        },
      },
      async (request) => service.saveCredentials(callerOf(request), currentPartnerOf(request), request.body),
    );

    app.get(
      '/v1/PunchoutSessions',
      {
        config: { roles: [Role.Administrator, Role.Support, Role.PlatformOperator] },
        schema: {
          tags,
          summary: 'Punchout-Sitzungen (wer, welcher Geschäftspartner, wann, zurückgegebene Positionen)',
          response: { 200: z.array(PunchoutSessionSummary) },
        },
      },
      async () => service.sessions(),
    );
  };
}
