import type { FastifyInstance } from 'fastify';
import { securityProblemTypes, securityTexts } from '@shk/contracts';
import { HttpProblem, type FieldError } from './problem.ts';

/** Postgres text cannot hold U+0000 (error 22021); other control characters are valid text. */
const NUL = String.fromCharCode(0);
const hasNul = (text: string) => text.includes(NUL);
const ENCODED_NUL = /%00/i;

/** Whether a text or raw bytes hold a NUL (for bodies the guard does not walk: buffers, multipart parts). */
export const containsNul = (value: string | Buffer) => (typeof value === 'string' ? hasNul(value) : value.includes(0));

/** The guard's 400 problem for a field the guard cannot see itself (raw bodies, credentials, multipart fields). */
export const invalidCharacters = (field: string) =>
  invalid([{ field, message: securityTexts.invalidCharactersDetail }]);

const invalid = (errors: FieldError[]) =>
  new HttpProblem(400, securityTexts.invalidCharactersTitle, {
    type: securityProblemTypes.invalidCharacters,
    detail: securityTexts.invalidCharactersDetail,
    errors,
  });

// Only parsed JSON/form data is walked, never streams or buffers of uploads.
const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Paths of every string (and key) in a parsed body that holds a forbidden character. */
export function findControlCharacters(
  value: unknown,
  where: string,
  found: FieldError[] = [],
  depth = 0,
): FieldError[] {
  if (found.length >= 20 || depth > 32) return found;
  if (typeof value === 'string') {
    if (hasNul(value)) found.push({ field: where, message: securityTexts.invalidCharactersDetail });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findControlCharacters(item, `${where}.${i}`, found, depth + 1));
  } else if (value && typeof value === 'object' && isPlain(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (hasNul(key)) found.push({ field: where, message: securityTexts.invalidCharactersDetail });
      else findControlCharacters(item, `${where}.${key}`, found, depth + 1);
    }
  }
  return found;
}

/**
 * Control characters never reach a handler or the database (a NUL made Postgres fail with 22021,
 * i.e. a 500): the URL (path and query, raw and decoded) before routing, the parsed body before
 * validation. Registered first, so it covers the identity provider's pages too.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const url = request.raw.url ?? '';
    let decoded = url;
    try {
      decoded = decodeURIComponent(url.replace(/\+/g, ' '));
    } catch {
      /* malformed escapes are the router's to reject */
    }
    if (ENCODED_NUL.test(url) || hasNul(decoded)) {
      const inQuery = url.includes('?') && url.toLowerCase().indexOf('%00') > url.indexOf('?');
      throw invalid([{ field: inQuery ? 'query' : 'path', message: securityTexts.invalidCharactersDetail }]);
    }
  });
  app.addHook('preValidation', async (request) => {
    const found = [
      ...findControlCharacters(request.query, 'query'),
      ...findControlCharacters(request.params, 'params'),
      ...findControlCharacters(request.body, 'body'),
    ];
    if (found.length) throw invalid(found);
  });
}
