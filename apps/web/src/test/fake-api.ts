/**
 * The API as component tests see it: every fetch of the SPA (openapi-fetch and plain fetch alike) goes to the
 * answer of the running test, which gets the request as sent (method, path with query, JSON body). Without an answer a
 * request fails the test loudly instead of reaching the network.
 */
export interface SentRequest {
  method: string;
  /** Path and query, e.g. '/v1/Users/Invitations'. */
  path: string;
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
}

type Answer = (request: SentRequest) => FakeAnswer | Promise<FakeAnswer>;

let answer: Answer | null = null;
let sent: SentRequest[] = [];

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The fetch installed for component tests (test/setup-dom.ts). */
export async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input instanceof Request ? input : new URL(String(input), window.location.origin), init);
  const url = new URL(request.url);
  const entry: SentRequest = { method: request.method, path: url.pathname + url.search, body: await readBody(request) };
  sent.push(entry);
  if (!answer) throw new Error(`Unerwarteter API-Aufruf im Test: ${entry.method} ${entry.path}`);
  const { status = 200, body } = await answer(entry);
  const json = body === undefined || status === 204;
  return new Response(json ? null : JSON.stringify(body), {
    status,
    headers: json ? {} : { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
}

/** Answers the SPA's API calls for this test; returns the list the requests sent are collected in. */
export function fakeApi(respond: Answer): SentRequest[] {
  answer = respond;
  sent = [];
  return sent;
}

/** A German RFC 9457 problem as the API sends it (title, status, optional field errors). */
export const problem = (status: number, title: string, errors?: { field: string; message: string }[]) => ({
  status,
  body: { type: 'about:blank', title, status, ...(errors ? { errors } : {}) },
});

export function resetFakeApi() {
  answer = null;
  sent = [];
}
