import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The one HTTP client of the SPA, typed from the API's OpenAPI document (`npm run gen:api`).
 * The auth layer plugs in how to get the bearer token and what to do when the API answers 401.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin });

type TokenSource = () => Promise<string | null | undefined>;

let tokenSource: TokenSource = async () => null;
let onUnauthorized: () => void = () => {};

export function configureApiAuth(options: { getAccessToken: TokenSource; onUnauthorized: () => void }) {
  tokenSource = options.getAccessToken;
  onUnauthorized = options.onUnauthorized;
}

/** Adds the bearer token to every call and reports an expired or revoked session once per response. */
const authMiddleware: Middleware = {
  async onRequest({ request }) {
    const token = await tokenSource();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has('Authorization')) onUnauthorized();
    return response;
  },
};

api.use(authMiddleware);

/** Reads the current bearer token, e.g. for file downloads through plain fetch. */
export const currentAccessToken = () => tokenSource();
