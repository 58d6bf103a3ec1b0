import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@shk/contracts';
import {
  demoUsers,
  idsSession,
  roleMatrix,
  type MatrixContext,
  type MatrixRequest,
  type MatrixRole,
} from '../role-matrix.table.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A NUL byte in any string of the body, the query or the path of every /v1 route (the role matrix's
 * samples give each route a request its role may make) is a 400 problem, never a 500; validation
 * and framework messages are German; X-Request-Id is kept only when well formed.
 */
let t: TestApp;
let ctx: MatrixContext;

beforeAll(async () => {
  t = await startTestApp();
  const fixtures = new Map<string, Promise<unknown>>();
  ctx = {
    t,
    sql: async (text, params = []) => (await t.pool.query(text, params)).rows,
    once: (key, create) => {
      if (!fixtures.has(key)) fixtures.set(key, create());
      return fixtures.get(key) as Promise<never>;
    },
  };
});
afterAll(async () => {
  await t?.close();
});

const NUL = '\u0000';

/** Every string leaf of a JSON value with a NUL inserted; counts how many were changed. */
function poison(value: unknown, counter: { n: number }): unknown {
  if (typeof value === 'string') {
    counter.n++;
    return `${value.slice(0, 1)}${NUL}${value.slice(1)}`;
  }
  if (Array.isArray(value)) return value.map((v) => poison(v, counter));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, counter)]));
  }
  return value;
}

function fill(path: string, params: MatrixRequest['params'], poisoned?: string) {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = String(params?.[name] ?? 'x');
    return encodeURIComponent(name === poisoned ? `${value}${NUL}` : value);
  });
}

function queryOf(query: MatrixRequest['query'], poisonAll: boolean) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const v of [value].flat()) q.append(key, poisonAll ? `${v}${NUL}` : String(v));
  }
  return q;
}

/** The route's first sample and how to send it: as its role's demo user, or (IDS column) with an IDS token. */
async function sampleFor(
  route: string,
): Promise<{ role: RoleName | null; token?: string; request: MatrixRequest } | null> {
  const entry = roleMatrix[route];
  if (!entry) return null;
  for (const [role, sample] of Object.entries(entry) as [MatrixRole | 'Ids' | 'IdsRefused', any][]) {
    if (role === 'IdsRefused') continue;
    const request: MatrixRequest = typeof sample === 'function' ? await sample(ctx) : sample;
    if (role === 'Ids') return { role: null, token: request.token ?? (await idsSession(ctx)).token, request };
    return { role: role === 'Anonymous' ? null : role, request };
  }
  return null;
}

function expectNulProblem(res: { status: number; headers: Headers; body: any; text: string }, what: string) {
  expect(res.status, `${what}: ${res.status} ${res.text.slice(0, 300)}`).toBe(400);
  expect(res.headers.get('content-type'), what).toContain('application/problem+json');
  expect(res.body.title, what).toBe('Die Anfrage enthält unzulässige Zeichen.');
}

describe('NUL bytes', () => {
  it('in the body, query and path of every /v1 route give a 400 problem', async () => {
    const routes = t.app.routeAccess.map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(30);
    let checked = 0;
    for (const route of routes) {
      const [method, path] = route.split(' ');
      const sample = await sampleFor(route);
      const request = sample?.request ?? {};
      const as = sample?.role ? (request.user ?? demoUsers[sample.role]) : undefined;
      const send = (url: string, body?: unknown) => t.request(method, url, { as, token: sample?.token, body });

      // Query: every sample value poisoned, or an extra parameter when the sample has none.
      const query = request.query ? queryOf(request.query, true) : new URLSearchParams({ q: `a${NUL}` });
      expectNulProblem(await send(`${fill(path, request.params)}?${query}`, request.body), `${route} (query)`);

      for (const name of Object.keys(request.params ?? {})) {
        expectNulProblem(
          await send(`${fill(path, request.params, name)}${request.query ? `?${queryOf(request.query, false)}` : ''}`),
          `${route} (path :${name})`,
        );
      }

      if (request.body !== undefined && !(request.body instanceof FormData) && method !== 'GET') {
        const counter = { n: 0 };
        const body = poison(request.body, counter);
        if (counter.n) {
          const url = `${fill(path, request.params)}${request.query ? `?${queryOf(request.query, false)}` : ''}`;
          expectNulProblem(await send(url, body), `${route} (body)`);
        }
      }
      checked++;
    }
    expect(checked).toBe(routes.length);
  }, 240_000);

  it('in a request to the identity provider is refused before it reaches the provider', async () => {
    const res = await t.request('GET', '/auth/auth?client_id=shk-portal-web&state=a%00b');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('German messages', () => {
  it('zod validation issues are German', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', { as: demoUsers.Buyer, body: { isPositive: true, url: 42 } });
    expect(res.status).toBe(400);
    const messages = res.body.errors.map((e: { message: string }) => e.message).join(' ');
    expect(messages).toMatch(/erwartet/);
    expect(messages).not.toMatch(/Invalid input|expected boolean|received/i);
  });

  it('framework errors (bad JSON, bad URL, wrong content type) carry German details', async () => {
    const bad = await t.request('POST', '/v1/Feedbacks', {
      as: demoUsers.Buyer,
      body: '{"isPositive":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Der Anfrageinhalt konnte nicht als JSON gelesen werden.');
    const url = await t.request('GET', '/v1/BusinessPartners/%E0%A4%A');
    expect(url.status).toBe(400);
    expect(url.body.detail).toBe('Die Adresse der Anfrage ist ungültig.');
    const type = await t.request('POST', '/v1/Feedbacks', {
      as: demoUsers.Buyer,
      body: 'x',
      headers: { 'content-type': 'text/x-unknown' },
    });
    expect(type.status).toBe(415);
    expect(type.body.detail).toMatch(/^Der Inhaltstyp/);
  });
});

describe('X-Request-Id', () => {
  it('is echoed when well formed and replaced otherwise', async () => {
    const good = await t.request('GET', '/health', { headers: { 'x-request-id': 'req-1234abcd' } });
    expect(good.headers.get('x-request-id')).toBe('req-1234abcd');
    for (const bad of ['<script>', 'a b c d e f g h', 'x'.repeat(300), 'abc\u00e4defgh']) {
      const res = await fetch(`${t.baseUrl}/health`, { headers: { 'x-request-id': encodeURIComponent(bad) } });
      const echoed = res.headers.get('x-request-id');
      if (encodeURIComponent(bad) === bad) expect(echoed).not.toBe(bad);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('id path parameters (one DbId rule: a positive integer JavaScript holds exactly)', () => {
  const beyond = String(Number.MAX_SAFE_INTEGER + 1); // 2^53, accepted by the old local copies

  it('2^53 is a 400 problem on every route that takes an id; the largest exact integer is a valid (unknown) id', async () => {
    for (const [path, as] of [
      [`/v1/SupplierCustomers/${beyond}`, 'einkauf@example.com'],
      [`/v1/SupplierOrders/LB-1/lines/1/attachments/${beyond}`, 'einkauf@example.com'],
      [`/v1/PlatformOperator/SupplierCustomers/${beyond}/StatusChanges`, 'support@example.com'],
      [`/v1/Reports/Download/${beyond}`, 'admin@example.com'],
    ] as const) {
      const res = await t.request('GET', path, { as });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toContain('application/problem+json');
    }
    const exact = await t.request('GET', `/v1/SupplierCustomers/${Number.MAX_SAFE_INTEGER}`, {
      as: 'einkauf@example.com',
    });
    expect(exact.status).toBe(404);
  });
});
