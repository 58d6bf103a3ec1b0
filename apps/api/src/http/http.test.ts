import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.ts';

/** The HTTP layer: the OpenAPI document and reference, request ids and problem responses (moved from test/foundation.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

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
