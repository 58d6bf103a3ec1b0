import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { problemTitles, ProblemType, securityProblemTypes, securityTexts, type Problem } from '@shk/contracts';
import { isDatabaseUnavailable } from '../db/pool.ts';

export interface FieldError {
  field: string;
  message: string;
  code?: string;
}

/** An error that becomes an RFC 9457 problem response. Throw it from any route or service. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly options: { type?: string; detail?: string; errors?: FieldError[] } = {},
  ) {
    super(options.detail ?? title);
  }
  toProblem(instance?: string): Problem {
    return {
      type: this.options.type ?? defaultType(this.status),
      title: this.title,
      status: this.status,
      ...(this.options.detail ? { detail: this.options.detail } : {}),
      ...(instance ? { instance } : {}),
      ...(this.options.errors?.length ? { errors: this.options.errors } : {}),
    };
  }
}

function defaultType(status: number): string {
  switch (status) {
    case 400:
      return ProblemType.badRequest;
    case 401:
      return ProblemType.unauthorized;
    case 403:
      return ProblemType.forbidden;
    case 404:
      return ProblemType.notFound;
    case 409:
      return ProblemType.conflict;
    default:
      return status >= 500 ? ProblemType.internal : ProblemType.badRequest;
  }
}

export const badRequest = (title: string = problemTitles.badRequest, detail?: string, errors?: FieldError[]) =>
  new HttpProblem(400, title, { detail, errors });
export const validationProblem = (errors: FieldError[], title: string = problemTitles.validation) =>
  new HttpProblem(400, title, {
    type: ProblemType.validation,
    errors,
    detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
  });
export const notFound = (detail?: string) => new HttpProblem(404, problemTitles.notFound, { detail });
export const forbidden = (detail?: string) => new HttpProblem(403, problemTitles.forbidden, { detail });
export const conflict = (title: string, detail?: string) =>
  new HttpProblem(409, title, { type: ProblemType.conflict, detail });
export const unauthorized = (detail?: string) => new HttpProblem(401, problemTitles.unauthorized, { detail });

export const databaseUnavailable = () =>
  new HttpProblem(503, securityTexts.serviceUnavailableTitle, {
    type: securityProblemTypes.serviceUnavailable,
    detail: securityTexts.serviceUnavailableDetail,
  });

export function sendProblem(reply: FastifyReply, problem: HttpProblem, request?: FastifyRequest) {
  return reply
    .status(problem.status)
    .type('application/problem+json; charset=utf-8')
    .send(problem.toProblem(request?.url));
}

/** Maps every error to a problem: bad input is a 4xx with the reason, never a 500. */
export function registerProblemHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpProblem) return sendProblem(reply, error, request);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const errors = error.validation.map((issue) => {
        const params = issue.params as { issue?: { path?: PropertyKey[]; message?: string } };
        const pathParts = params.issue?.path ?? issue.instancePath.split('/').filter(Boolean);
        return {
          field: [where, ...pathParts.map(String)].join('.'),
          message: params.issue?.message ?? issue.message ?? 'ungültig',
        };
      });
      return sendProblem(reply, validationProblem(errors), request);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response does not match its schema');
      return sendProblem(reply, new HttpProblem(500, problemTitles.internal), request);
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(
          reply,
          new HttpProblem(400, problemTitles.malformedJson, {
            detail:
              error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'Der Anfrageinhalt ist leer, obwohl JSON angekündigt wurde.'
                : 'Der Anfrageinhalt konnte nicht als JSON gelesen werden.',
          }),
          request,
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendProblem(
          reply,
          new HttpProblem(415, problemTitles.unsupportedMediaType, {
            detail: `Der Inhaltstyp „${String(request.headers['content-type'] ?? '–').slice(0, 100)}“ wird hier nicht unterstützt.`,
          }),
          request,
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return sendProblem(
          reply,
          new HttpProblem(413, problemTitles.payloadTooLarge, {
            detail: 'Die Anfrage überschreitet die zulässige Größe.',
          }),
          request,
        );
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      case 'FST_PARTS_LIMIT':
      case 'FST_FILES_LIMIT':
      case 'FST_FIELDS_LIMIT':
        return sendProblem(
          reply,
          badRequest(problemTitles.badRequest, 'Die Datei-Anfrage ist ungültig oder enthält zu viele Teile.'),
          request,
        );
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendProblem(reply, databaseUnavailable(), request);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own messages are English; the caller gets a German one (the log keeps the original).
      const detail = error.code?.startsWith('FST_') ? 'Die Anfrage konnte nicht verarbeitet werden.' : error.message;
      if (detail !== error.message) request.log.info({ err: error }, 'request rejected');
      return sendProblem(reply, new HttpProblem(status, problemTitles.badRequest, { detail }), request);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, new HttpProblem(500, problemTitles.internal), request);
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new HttpProblem(404, problemTitles.routeNotFound, {
        type: ProblemType.notFound,
        detail: `${request.method} ${request.url.split('?')[0]}`,
      }),
      request,
    ),
  );
}
