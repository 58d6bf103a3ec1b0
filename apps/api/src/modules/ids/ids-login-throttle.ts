import type { FastifyReply } from 'fastify';
import { securityTexts } from '@shk/contracts';

/** Failed IDS logins per account (customer number + user name, from any address) before a temporary lockout. */
export const IDS_FAILURES_PER_ACCOUNT = 10;
export const IDS_ACCOUNT_LOCKOUT_MINUTES = 15;
/** Failed IDS logins per client address (many accounts tried from one place). */
export const IDS_FAILURES_PER_ADDRESS = 30;
export const IDS_ADDRESS_WINDOW_MINUTES = 10;

interface Window {
  failures: number;
  resetAt: number;
}

/**
 * Counts failed IDS logins per account and per client address (in-process, like the portal's login throttle).
 * Only failures count: craftsman software signs in for every transfer, so successful logins must never lock an
 * account. While a limit is reached every attempt – the right password too – is refused.
 */
export class IdsLoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  private active(key: string): Window | null {
    const window = this.windows.get(key);
    if (!window) return null;
    if (window.resetAt <= this.now()) {
      this.windows.delete(key);
      return null;
    }
    return window;
  }

  /** Seconds until the account or address may try again; 0 when it may try now. */
  lockedFor(account: string, address: string): number {
    const limits: [string, number][] = [
      [`account:${account}`, IDS_FAILURES_PER_ACCOUNT],
      [`address:${address}`, IDS_FAILURES_PER_ADDRESS],
    ];
    let wait = 0;
    for (const [key, max] of limits) {
      const window = this.active(key);
      if (window && window.failures >= max) wait = Math.max(wait, Math.ceil((window.resetAt - this.now()) / 1000));
    }
    return wait;
  }

  recordFailure(account: string, address: string) {
    this.count(`account:${account}`, IDS_ACCOUNT_LOCKOUT_MINUTES);
    this.count(`address:${address}`, IDS_ADDRESS_WINDOW_MINUTES);
    // Bounded memory: forget expired windows now and then.
    if (this.windows.size > 10_000) for (const key of [...this.windows.keys()]) this.active(key);
  }

  private count(key: string, minutes: number) {
    const window = this.active(key) ?? { failures: 0, resetAt: this.now() + minutes * 60_000 };
    window.failures += 1;
    this.windows.set(key, window);
  }
}

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
  const text = securityTexts.loginLocked(Math.max(1, Math.ceil(seconds / 60)));
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
