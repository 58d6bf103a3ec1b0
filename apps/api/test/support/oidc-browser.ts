import { createHash, randomBytes } from 'node:crypto';
import { CookieJar } from './oidc-login.ts';

/** The embedded provider as a browser uses it: one cookie jar, manual redirects. */
export class Browser {
  readonly jar = new CookieJar();
  constructor(readonly base: string) {}
  async go(url: string, init: RequestInit = {}) {
    const response = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.jar.header() },
    });
    this.jar.store(response);
    return response;
  }
  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
  /** Starts an authorization and returns the login form's action. */
  async loginForm(verifier = randomBytes(32).toString('base64url')) {
    const authorize = new URL('/auth/auth', this.base);
    authorize.search = new URLSearchParams({
      client_id: 'shk-portal-web',
      response_type: 'code',
      redirect_uri: `${this.base}/auth-callback`,
      scope: 'openid profile email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'x',
      prompt: 'login',
    }).toString();
    const start = await this.go(authorize.toString());
    const page = await this.go(start.headers.get('location')!);
    const action = (await page.text()).match(/action="([^"]+)"/)![1];
    return { action, verifier };
  }
  /** Full sign-in; returns the token response. */
  async signIn(email: string, password = 'demo') {
    const { action, verifier } = await this.loginForm();
    let response = await this.post(action, { login: email, password });
    let location = response.headers.get('location');
    while (location && !location.startsWith(`${this.base}/auth-callback`)) {
      response = await this.go(location);
      location = response.headers.get('location');
    }
    const code = new URL(location!).searchParams.get('code')!;
    const tokens = await fetch(`${this.base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${this.base}/auth-callback`,
        client_id: 'shk-portal-web',
        code_verifier: verifier,
      }).toString(),
    });
    return (await tokens.json()) as { access_token: string; id_token: string; expires_in: number };
  }
  /** Signs out through the provider's end-session page, as the portal's logout does; returns the confirm's status. */
  async signOut(idToken: string) {
    const end = new URL('/auth/session/end', this.base);
    end.search = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${this.base}/`,
    }).toString();
    const html = await (await this.go(end.toString())).text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)![1];
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    return (await this.post(action, fields)).status;
  }
}
