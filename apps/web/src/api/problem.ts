import type { Problem } from '@shk/contracts';

/** A failed API call: the HTTP status and, when the server sent one, its RFC 9457 problem details. */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | null;

  constructor(status: number, problem: Problem | null) {
    super(problem?.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'title' in value && 'status' in value;
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Returns the data of an openapi-fetch result or throws an ApiError (what react-query expects). */
export function unwrap<T>(result: FetchResult<T>): T {
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, isProblem(result.error) ? result.error : null);
  }
  return result.data as T;
}

/** Throws an ApiError unless the response has the expected status (e.g. 204 or 201 only). */
export function expectStatus(result: FetchResult<unknown>, ...statuses: number[]): void {
  if (!statuses.includes(result.response.status)) {
    throw new ApiError(result.response.status, isProblem(result.error) ? result.error : null);
  }
}

/** The server's German title of a failure, else the given fallback text. */
export function problemTitle(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.problem?.title) return error.problem.title;
  return fallback;
}

/** Field errors of a validation problem keyed by the field name without its location ('body.name' → 'name'). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.problem?.errors) return {};
  const result: Record<string, string> = {};
  for (const entry of error.problem.errors) {
    const field = entry.field.replace(/^(body|query|params)\./, '');
    result[field] ??= entry.message;
  }
  return result;
}

export const hasStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;
