import { createHash, randomBytes } from 'node:crypto';

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
}

/** A tiny cookie jar: enough for the provider's session and interaction cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(header) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in through the embedded provider exactly like the SPA does: authorization code + PKCE,
 * the German login form, then the token endpoint. Returns the tokens, or throws with the
 * status of the step that failed.
 */
export async function loginWithCodeFlow(
  baseUrl: string,
  email: string,
  password = 'demo',
  clientId = 'shk-portal-web',
): Promise<Tokens> {
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${baseUrl}/auth-callback`;
  const authorize = new URL(`${baseUrl}/auth/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile email offline_access',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    prompt: 'login',
  }).toString();

  const follow = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers ?? {}), cookie: jar.header() },
    });
    jar.store(response);
    return response;
  };

  let response = await follow(authorize.toString());
  const interactionUrl = new URL(response.headers.get('location') ?? '', baseUrl).toString();
  if (!interactionUrl.includes('/auth/interaction/'))
    throw new Error(`authorize: expected interaction redirect, got ${response.status}`);
  response = await follow(interactionUrl);
  const html = await response.text();
  const action = html.match(/action="([^"]+)"/)?.[1];
  if (!action) throw new Error('login page has no form');

  response = await follow(new URL(action, baseUrl).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: email, password }).toString(),
  });
  if (response.status === 401) throw new Error('login rejected: wrong credentials');
  let location = response.headers.get('location');
  for (let hop = 0; hop < 5 && location && !location.startsWith(redirectUri); hop++) {
    response = await follow(new URL(location, baseUrl).toString());
    location = response.headers.get('location');
  }
  if (!location?.startsWith(redirectUri)) throw new Error(`no redirect to the callback (status ${response.status})`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`callback without code: ${location}`);

  const tokenResponse = await fetch(`${baseUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  if (!tokenResponse.ok) throw new Error(`token endpoint: ${tokenResponse.status} ${await tokenResponse.text()}`);
  return (await tokenResponse.json()) as Tokens;
}
