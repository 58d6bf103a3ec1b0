import type { FastifyReply } from 'fastify';
import { securityTexts } from '@shk/contracts';

/** The account key of an IDS login: customer number and user name, case-insensitive. */
export const idsAccountKey = (fields: { kndnr?: string | null; name_kunde?: string | null }) =>
  `${(fields.kndnr ?? '').trim().toLowerCase()}|${(fields.name_kunde ?? '').trim().toLowerCase()}`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A German error page for the craftsman's browser (it posted a form, so no JSON problem). */
export function idsErrorPage(reply: FastifyReply, status: number, title: string, text: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>SHK-Bestellportal – ${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
}

/**
 * The answer for a locked IDS login: the craftsman's browser posted a form, so a German page (429, Retry-After),
 * not a JSON problem.
 */
export function sendIdsLocked(reply: FastifyReply, retryAfterSeconds: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const text = securityTexts.loginDelayed(seconds);
  return reply
    .code(429)
    .header('retry-after', String(seconds))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>SHK-Bestellportal – Anmeldung gesperrt</title></head>` +
        `<body><h1>Anmeldung vorübergehend gesperrt</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
}
