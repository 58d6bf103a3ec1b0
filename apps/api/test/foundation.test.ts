import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureSettingDefaults, messages } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from './support/test-app.ts';
import { CookieJar, type Tokens } from './support/oidc-login.ts';

/** API-level tests of the foundation: health, version, OpenAPI, settings, feedback, support mail, identity, problems. */
const SUPPORT_MAILBOX = 'servicedesk@shk-test.example';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SUPPORT_MAILBOX } });
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

describe('health and version', () => {
  it('answers liveness and readiness without a token', async () => {
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('returns the API version string', async () => {
    const res = await t.request('GET', '/v1/Version', { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toBe('1.14.0');
  });
});

describe('OpenAPI document and API reference', () => {
  it('serves OpenAPI 3.1 at /v1/openapi.json with every /v1 route', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'SHK-Bestellportal API', version: '1.14.0-alpha.3' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['UserProfile', 'BusinessPartner', 'ConfigurationValue', 'ClientConfig']),
    );
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    const missing = t.app.routeAccess
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    // Request schemas come from zod: the feedback body documents its fields and limits.
    const feedback = doc.paths['/v1/Feedbacks'].post.requestBody.content['application/json'].schema;
    expect(feedback.required).toContain('isPositive');
    expect(feedback.properties.comment.anyOf?.[0]?.maxLength ?? feedback.properties.comment.maxLength).toBe(512);
    // The public client configuration needs no token.
    expect(doc.paths['/v1/ClientConfig'].get.security).toEqual([]);
  });

  it('serves the interactive API reference at /v1/docs', async () => {
    let res = await fetch(`${t.baseUrl}/v1/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('swagger-ui');
    // The page's own assets load too.
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      res = await fetch(new URL(asset, `${t.baseUrl}/v1/docs/`));
      expect(res.status, asset).toBe(200);
    }
  });
});

describe('configuration values', () => {
  it.each([
    ['AttachmentsMaxFilesCount', '1'],
    ['AttachmentsMaxFileSize', '25'],
    ['AttachmentsAllowedFileFormats', 'pdf,png,jpg,jpeg,xls,xlsx,csv'],
    ['MaxCartCount', '10'],
  ])('%s defaults to %s', async (key, value) => {
    const res = await t.request('GET', `/v1/ConfigurationValues/${key}`, { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key, value, values: [value] });
  });

  it('has every feature-setting key of the spec stored in the database', async () => {
    const { rows } = await t.pool.query<{ key: string }>('SELECT key FROM custom_parameters');
    expect(rows.map((r) => r.key)).toEqual(expect.arrayContaining(featureSettingDefaults.map((d) => d.key)));
  });

  it('reads the value staff stored, not a constant', async () => {
    await t.pool.query("UPDATE custom_parameter_values SET value = '12' WHERE key = 'MaxCartCount'");
    try {
      const res = await t.request('GET', '/v1/ConfigurationValues/MaxCartCount', { as: 'verkauf@example.com' });
      expect(res.body.value).toBe('12');
    } finally {
      await t.pool.query("UPDATE custom_parameter_values SET value = '10' WHERE key = 'MaxCartCount'");
    }
  });

  it('keeps non-public and unknown keys hidden (404 problem), rejects malformed keys (400)', async () => {
    for (const key of ['KitchenConfiguratorClientSecret', 'NoSuchKey']) {
      const res = await t.request('GET', `/v1/ConfigurationValues/${key}`, { as: 'admin@example.com' });
      expect(res.status, key).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const bad = await t.request('GET', `/v1/ConfigurationValues/${encodeURIComponent('a b;drop')}`, { as: BUYER });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('params.key');
  });
});

describe('feedback', () => {
  it('stores feedback with user and current partner', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: { isPositive: false, comment: 'Kein Treffer für Rotguss', url: '/suche?term=Rotguss' },
    });
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query(
      'SELECT f.*, u.email FROM feedbacks f JOIN users u ON u.id = f.user_id WHERE f.id = $1',
      [res.body.id],
    );
    expect(rows[0]).toMatchObject({
      email: BUYER,
      bp_number: '100001',
      is_positive: false,
      comment: 'Kein Treffer für Rotguss',
      url: '/suche?term=Rotguss',
    });
  });

  it('requires isPositive and limits the comment to 512 characters, listing every field', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', { as: BUYER, body: { comment: 'x'.repeat(513) } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.type).toBe('validation-error');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.isPositive', message: messages.required }),
        expect.objectContaining({ field: 'body.comment', message: 'Kommentar darf maximal 512 Zeichen enthalten' }),
      ]),
    );
    const ok = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: { isPositive: true, comment: 'x'.repeat(512) },
    });
    expect(ok.status).toBe(201);
  });
});

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function parseEml(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = decodeHeader(line.slice(i + 1).trim());
  }
  let body = rest.join('\n\n');
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, body };
}

describe('partner data change request', () => {
  it('is stored and mailed to the support mailbox as an .eml file under DATA_DIR/mail', async () => {
    const body = {
      message: 'Unsere Telefonnummer hat sich geändert: 0221 555-0',
      email: 'buchhaltung@sanitaer-mueller.example',
      phoneNumber: '+49 221 555-0',
    };
    const res = await t.request('POST', '/v1/SupportRequests/PartnerDataChange', { as: BUYER, body });
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query('SELECT * FROM support_requests WHERE id = $1', [res.body.id]);
    expect(rows[0]).toMatchObject({
      kind: 'PartnerDataChange',
      bp_number: '100001',
      message: body.message,
      email: body.email,
      phone_number: body.phoneNumber,
    });

    const mailDir = path.join(t.config.dataDir, 'mail');
    const file = await eventually(async () => {
      const outbox = (await t.pool.query('SELECT status, stored_as FROM mail_outbox WHERE id = $1', [rows[0].mail_id]))
        .rows[0];
      return outbox?.status === 'sent' && outbox.stored_as;
    });
    expect(path.dirname(file)).toBe(mailDir);
    const mail = parseEml(fs.readFileSync(file, 'utf8'));
    expect(mail.headers.to).toBe(SUPPORT_MAILBOX);
    // Reply-To is the signed-in user's profile address (issue 14); the typed-in one is in the text.
    expect(mail.headers['reply-to']).toBe('einkauf@example.com');
    expect(mail.body).toContain(body.email);
    expect(mail.headers.from).toContain('noreply@shk-bestellportal.example');
    expect(mail.headers.subject).toBe('Änderungsantrag Firmendaten: 100001 Sanitär Müller GmbH');
    expect(mail.body).toContain(body.message);
    expect(mail.body).toContain('Erika Einkauf <einkauf@example.com> (Einkäufer)');
    expect(mail.body).toContain('Telefon +49 221 555-0');
  });

  it('requires message and a valid e-mail, listing every field', async () => {
    const res = await t.request('POST', '/v1/SupportRequests/PartnerDataChange', {
      as: BUYER,
      body: { message: '  ', email: 'kein-mail' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['body.email', 'body.message']);
  });
});

// ---------------------------------------------------------------------------------------------
// Identity: the embedded provider driven like a browser
// ---------------------------------------------------------------------------------------------

class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly base: string) {}
  async go(url: string, init: RequestInit = {}) {
    const res = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers ?? {}), cookie: this.jar.header() },
    });
    this.jar.store(res);
    return res;
  }
  post(url: string, form: Record<string, string>) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }
}

const CLIENT_ID = 'shk-portal-web';
const callbackOf = () => `${t.config.publicUrl}/auth-callback`;

/** Starts an authorization request and follows redirects until the login page or the SPA callback. */
async function authorize(
  browser: Browser,
  verifier: string,
  prompt?: string,
): Promise<{ loginUrl?: string; code?: string; error?: string }> {
  const url = new URL(`${t.config.publicUrl}/auth/auth`);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: callbackOf(),
    scope: 'openid profile email offline_access',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(6).toString('hex'),
    ...(prompt ? { prompt } : {}),
  }).toString();
  let res = await browser.go(url.toString());
  for (let hop = 0; hop < 6; hop++) {
    const location = res.headers.get('location');
    if (!location) break;
    if (location.startsWith(callbackOf())) {
      const params = new URL(location).searchParams;
      return { code: params.get('code') ?? undefined, error: params.get('error') ?? undefined };
    }
    if (location.includes('/auth/interaction/')) return { loginUrl: new URL(location, t.config.publicUrl).toString() };
    res = await browser.go(location);
  }
  throw new Error(`authorize ended with ${res.status}`);
}

async function exchange(code: string, verifier: string): Promise<Tokens> {
  const res = await fetch(`${t.config.publicUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackOf(),
      client_id: CLIENT_ID,
      code_verifier: verifier,
    }).toString(),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<Tokens>;
}

async function signIn(browser: Browser, email: string, password = 'demo') {
  const verifier = randomBytes(32).toString('base64url');
  const { loginUrl } = await authorize(browser, verifier, 'login');
  const page = await (await browser.go(loginUrl!)).text();
  const action = page.match(/action="([^"]+)"/)![1];
  let res = await browser.post(action, { login: email, password });
  let location = res.headers.get('location');
  for (let hop = 0; hop < 6 && location && !location.startsWith(callbackOf()); hop++) {
    res = await browser.go(location);
    location = res.headers.get('location');
  }
  const code = new URL(location!).searchParams.get('code')!;
  return exchange(code, verifier);
}

describe('embedded identity provider', () => {
  it('publishes its discovery document at /auth', async () => {
    const res = await t.request('GET', '/auth/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: `${t.config.publicUrl}/auth`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.body.end_session_endpoint).toBe(`${t.config.publicUrl}/auth/session/end`);
  });

  it('shows a German login page with inputs login and password and the button Anmelden', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { loginUrl } = await authorize(browser, randomBytes(32).toString('base64url'));
    expect(loginUrl).toBeDefined();
    const res = await browser.go(loginUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/<input[^>]*name="login"/);
    expect(html).toMatch(
      /<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/,
    );
    expect(html).toMatch(/<button type="submit">Anmelden<\/button>/);
    expect(html).toContain('E-Mail-Adresse');
    expect(html).toContain('Passwort');
  });

  it('answers wrong credentials with a German error and no session', async () => {
    const browser = new Browser(t.config.publicUrl);
    const { loginUrl } = await authorize(browser, randomBytes(32).toString('base64url'));
    const action = (await (await browser.go(loginUrl!)).text()).match(/action="([^"]+)"/)![1];
    for (const [login, password] of [
      [BUYER, 'falsch'],
      ['niemand@example.com', 'demo'],
    ]) {
      const res = await browser.post(action, { login, password });
      expect(res.status).toBe(401);
      const html = await res.text();
      expect(html).toContain('E-Mail-Adresse oder Passwort ist falsch.');
      expect(html).toContain(`value="${login}"`);
      expect(html).toMatch(/<input[^>]*name="password"/);
    }
  });

  it('issues JWT access tokens for the API audience that the API accepts', async () => {
    const tokens = await signIn(new Browser(t.config.publicUrl), 'support@example.com');
    const [, payload] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({
      iss: `${t.config.publicUrl}/auth`,
      aud: 'urn:shk-portal:api',
      sub: '00000000-0000-4000-8000-000000000005',
    });
    const me = await t.request('GET', '/v1/UserProfile', { token: tokens.access_token });
    expect(me.body).toMatchObject({ email: 'support@example.com', role: 4 });
  });

  it('end-session really ends the provider session', async () => {
    const browser = new Browser(t.config.publicUrl);
    const tokens = await signIn(browser, BUYER);

    // While the session lives, a new authorization needs no login (the SPA's silent renewal: prompt=none).
    expect((await authorize(browser, randomBytes(32).toString('base64url'))).code).toBeTruthy();
    expect((await authorize(browser, randomBytes(32).toString('base64url'), 'none')).code).toBeTruthy();

    const end = new URL(`${t.config.publicUrl}/auth/session/end`);
    end.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
    }).toString();
    const page = await browser.go(end.toString());
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="de"');
    const action = html.match(/<form[^>]*action="([^"]+)"/)![1];
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(fields.logout).toBe('yes');
    const confirmed = await browser.post(action, fields);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${t.config.publicUrl}/`);

    // The provider session is gone: the next authorization shows the login page again …
    const after = await authorize(browser, randomBytes(32).toString('base64url'));
    expect(after.code).toBeUndefined();
    expect(after.loginUrl).toContain('/auth/interaction/');
    // … and silent renewal fails with login_required.
    const silent = await authorize(browser, randomBytes(32).toString('base64url'), 'none');
    expect(silent).toMatchObject({ code: undefined, error: 'login_required' });
  });
});

describe('signing keys persist in DATA_DIR', () => {
  it('a token issued before a restart is still accepted after it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-keys-'));
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    let other: TestApp | undefined;
    try {
      first = await startTestApp({ env: { DATA_DIR: dataDir } });
      const token = await first.token(BUYER);
      const publicUrl = first.config.publicUrl;
      await first.close();
      first = undefined;
      expect(fs.existsSync(path.join(dataDir, 'identity', 'keys.json'))).toBe(true);

      // Same DATA_DIR and public URL (same issuer): the old token is valid.
      second = await startTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: publicUrl } });
      const res = await second.request('GET', '/v1/UserProfile', { token });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(BUYER);

      // Control: a fresh DATA_DIR has new keys, so the same token is refused.
      other = await startTestApp({ env: { PUBLIC_URL: publicUrl } });
      expect((await other.request('GET', '/v1/UserProfile', { token })).status).toBe(401);
    } finally {
      await first?.close();
      await second?.close();
      await other?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Three app starts and stops in one test: slow on a busy two-core machine.
  }, 180_000);
});

describe('requests and problems', () => {
  it("gives every response a request id and echoes the caller's x-request-id", async () => {
    const plain = await t.request('GET', '/health');
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request('GET', '/v1/NoSuchRoute', { headers: { 'x-request-id': 'trace-4711' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-4711');
    const other = await t.request('GET', '/health');
    expect(other.headers.get('x-request-id')).not.toBe(plain.headers.get('x-request-id'));
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: '{"isPositive": tru',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, title: 'Der Anfrageinhalt ist kein gültiges JSON.' });
  });

  it('answers an undecodable URL with a 400 problem', async () => {
    for (const url of ['/v1/BusinessPartners/%ZZ', '/auth/interaction/%E0%A4%A']) {
      const res = await t.request('GET', url, { headers: { 'x-request-id': 'bad-url-1' } });
      expect(res.status, url).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('x-request-id')).toBe('bad-url-1');
      expect(res.body).toMatchObject({ status: 400, title: 'Ungültige Anfrage' });
    }
  });

  it('answers a body of an unsupported type with a 415 problem', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: '<feedback/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    // Plain text is parsed but is no object: a validation problem, not a 500.
    const text = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: 'isPositive=true',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect(text.body.type).toBe('validation-error');
  });

  it('answers an unknown route with a 404 problem, with or without token', async () => {
    for (const token of [undefined, await t.token(BUYER)]) {
      const res = await t.request('GET', '/v1/GibtEsNicht?x=1', { token });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({
        status: 404,
        type: 'not-found',
        title: 'Die angeforderte Ressource existiert nicht.',
        detail: 'GET /v1/GibtEsNicht',
      });
    }
    const post = await t.request('POST', '/v1/UserProfile', { as: BUYER, body: {} });
    expect(post.status).toBe(404);
  });

  it('answers a missing or invalid token with a 401 problem', async () => {
    for (const token of [undefined, 'abc.def.ghi']) {
      const res = await t.request('GET', '/v1/UserProfile', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, type: 'unauthorized', title: 'Nicht angemeldet' });
    }
  });
});
