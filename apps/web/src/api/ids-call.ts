import { currentAccessToken } from './client';
import { ApiError, isProblem } from './problem';

/**
 * The IDS-Connect calls of the SPA (buyer-side.md §7 'IDS'). The return calls answer HTML (a form to
 * the craftsman program's hook URL), which openapi-fetch does not model; all calls go through fetch
 * with the same bearer token.
 */
export async function idsCall(method: string, url: string, body?: unknown): Promise<Response> {
  const token = await currentAccessToken();
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) {
    const text = await response.text();
    let problem: unknown = null;
    try {
      problem = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    throw new ApiError(response.status, isProblem(problem) ? problem : null);
  }
  return response;
}

/** Signs an IDS session out: the API refuses its token from now on. */
export async function endIdsSession(): Promise<void> {
  await idsCall('POST', '/v1/Ids/Logout');
}
