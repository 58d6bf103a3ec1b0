import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { passwordTexts } from '@shk/contracts';
import type { App } from '../../http/types.ts';
import { forgotPasswordPage, linkInvalidPage, passwordSetPage, setPasswordPage } from './password-pages.ts';
import { LinkInvalid, PASSWORD_LINK_PATH, PasswordRefused, type PasswordService } from './passwords.service.ts';

/** "Passwort vergessen?" (linked from the login page). */
export const FORGOT_PATH = '/auth/passwort-vergessen';

/** The login page a "Zurück zur Anmeldung" link returns to: the running sign-in, else the start page (a new one). */
const backTo = (interaction?: string) =>
  interaction && /^[\w-]{1,100}$/.test(interaction) ? `/auth/interaction/${interaction}` : '/';

export const forgotLinkOf = (interaction?: string) =>
  interaction ? `${FORGOT_PATH}?anmeldung=${encodeURIComponent(interaction)}` : FORGOT_PATH;

/**
 * The provider's password pages (HTML, German; no script). The set-password page's address carries the one-time
 * token: it is never cached and sends no referrer, and only its POST uses the link up (a mail scanner that opens the
 * link does not spend it).
 */
export async function passwordPagesRoutes(app: App, passwords: PasswordService) {
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(body);

  const ForgotQuery = z.object({ anmeldung: z.string().max(100).optional() });
  const ForgotForm = z.object({ email: z.string().max(1000).default(''), anmeldung: z.string().max(100).optional() });

  app.get(FORGOT_PATH, { schema: { hide: true, querystring: ForgotQuery } }, async (request, reply) => {
    const interaction = request.query.anmeldung;
    return html(reply, 200, forgotPasswordPage({ action: FORGOT_PATH, back: backTo(interaction), interaction }));
  });

  app.post(FORGOT_PATH, { schema: { hide: true, body: ForgotForm } }, async (request, reply) => {
    const { email, anmeldung } = request.body;
    const page = { action: FORGOT_PATH, back: backTo(anmeldung), interaction: anmeldung, email: email.trim() };
    if (!z.email().safeParse(email.trim()).success) {
      return html(
        reply,
        400,
        forgotPasswordPage({ ...page, error: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.' }),
      );
    }
    const waitSeconds = await passwords.requestReset(email, request.ip);
    if (waitSeconds > 0) {
      request.log.warn({ ip: request.ip }, 'password reset requests throttled');
      reply.header('retry-after', String(waitSeconds));
      const error = passwordTexts.forgotTooMany(Math.max(1, Math.ceil(waitSeconds / 60)));
      return html(reply, 429, forgotPasswordPage({ ...page, error }));
    }
    // The same answer whether an account has this address or not.
    return html(reply, 200, forgotPasswordPage({ ...page, sent: true }));
  });

  const TokenParams = z.object({ token: z.string().min(1).max(200) });
  const SetForm = z.object({
    password: z.string().max(10_000).default(''),
    passwordRepeat: z.string().max(10_000).default(''),
  });

  app.get(`${PASSWORD_LINK_PATH}/:token`, { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    try {
      const link = await passwords.openLink(request.params.token);
      return html(reply, 200, setPasswordPage({ action: request.url, ...link }));
    } catch (error) {
      if (error instanceof LinkInvalid) return html(reply, 410, linkInvalidPage(FORGOT_PATH));
      throw error;
    }
  });

  app.post(
    `${PASSWORD_LINK_PATH}/:token`,
    { schema: { hide: true, params: TokenParams, body: SetForm } },
    async (request, reply) => {
      const { token } = request.params;
      const { password, passwordRepeat } = request.body;
      try {
        const link = await passwords.openLink(token);
        if (password !== passwordRepeat) {
          return html(reply, 400, setPasswordPage({ action: request.url, ...link, error: passwordTexts.mismatch }));
        }
        try {
          await passwords.setPasswordWithLink(token, password);
        } catch (error) {
          if (!(error instanceof PasswordRefused)) throw error;
          return html(reply, 400, setPasswordPage({ action: request.url, ...link, error: error.message }));
        }
        return html(reply, 200, passwordSetPage());
      } catch (error) {
        if (error instanceof LinkInvalid) return html(reply, 410, linkInvalidPage(FORGOT_PATH));
        throw error;
      }
    },
  );
}
