import { decodeJwt } from 'jose';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { ChangePasswordBody, InviteUserBody, Role, UserInvitation } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { conflict } from '../../http/problem.ts';
import { GRANT_CLAIM } from './provider.ts';
import { PasswordService } from './passwords.service.ts';

/** The grant of the request's own token (already verified by the auth hook): its sign-in survives a password change. */
function ownGrantOf(request: FastifyRequest): string | null {
  const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) return null;
  try {
    const grant = decodeJwt(token)[GRANT_CLAIM];
    return typeof grant === 'string' ? grant : null;
  } catch {
    return null;
  }
}

const EXTERNAL_SIGN_IN =
  'Das Portal meldet über einen externen Anmeldedienst an: Passwörter und Einladungen verwaltet dieser Dienst.';

/** Passwords of the embedded provider on the API: change one's own, invite a new user (staff). */
export async function passwordRoutes(app: App, deps: AppDeps) {
  const passwords = new PasswordService(deps, (grantId) => app.callerCache?.forgetGrant(grantId));
  const embedded = !deps.config.oidcIssuer;

  app.put(
    '/v1/UserProfile/Password',
    {
      config: { roles: 'authenticated' },
      schema: {
        tags: ['Profil'],
        summary: 'Eigenes Passwort ändern (beendet die anderen Anmeldungen)',
        body: ChangePasswordBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      if (!embedded) throw conflict(EXTERNAL_SIGN_IN);
      await passwords.changePassword(callerOf(request), request.body, ownGrantOf(request), request.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/Users/Invitations',
    {
      config: { roles: [Role.Administrator, Role.Support, Role.PlatformOperator] },
      schema: {
        tags: ['Benutzer'],
        summary: 'Neuen Benutzer per E-Mail einladen (Link zum Festlegen des Passworts, 7 Tage gültig)',
        body: InviteUserBody,
        response: { 201: UserInvitation },
      },
    },
    async (request, reply) => {
      if (!embedded) throw conflict(EXTERNAL_SIGN_IN);
      return reply.status(201).send(await passwords.invite(callerOf(request), request.body));
    },
  );
}
