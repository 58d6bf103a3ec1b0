import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, roleNames, type RoleName } from '@shk/contracts';
import type { RouteAccess, RouteAccessEntry } from '../src/http/auth.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import {
  demoUsers,
  idsSession,
  matrixUrl,
  roleMatrix,
  type MatrixContext,
  type MatrixRequest,
  type MatrixSample,
} from './role-matrix.table.ts';

/**
 * Role × endpoint matrix over every registered /v1 route (see role-matrix.table.ts):
 * anonymous → 401, each role the route does not allow → 403, each allowed role's sample → 2xx;
 * and the IDS column: an IDS session's token → 403 unless the route is open to IDS sessions (then its
 * sample → 2xx, and on a guarded route the IdsRefused sample → 403).
 */
let t: TestApp;
let routes: Map<string, RouteAccessEntry>;
let ctx: MatrixContext;

beforeAll(async () => {
  t = await startTestApp();
  routes = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r]));
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

const allRoles = Object.values(Role) as Role[];
const allowedRoles = (access: RouteAccess): Role[] =>
  access === 'public' || access === 'authenticated' ? allRoles : [...access];

/** A matrix key ("GET /v1/…") with its sample's parameters and query. */
const urlOf = (route: string, request: MatrixRequest) => matrixUrl(route.split(' ')[1], request);

const describeAccess = (access: RouteAccess) =>
  typeof access === 'string' ? access : access.map((r) => roleNames[r]).join(', ');

const resolve = async (sample: MatrixSample): Promise<MatrixRequest> =>
  typeof sample === 'function' ? sample(ctx) : sample;

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, what: string) {
  expect(res.status, `${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(
    status,
  );
  expect(res.headers.get('content-type'), what).toContain('application/problem+json');
  expect(res.body, what).toMatchObject({ status });
}

describe('role × endpoint matrix', () => {
  it('has exactly one entry per registered /v1 route', () => {
    const registered = [...routes.keys()].sort();
    const missing = registered.filter((key) => !(key in roleMatrix));
    const stale = Object.keys(roleMatrix).filter((key) => !routes.has(key));
    const problems = [
      ...missing.map(
        (key) =>
          `route without an entry in apps/api/test/role-matrix.table.ts: ${key} (roles: ${describeAccess(routes.get(key)!.roles)})`,
      ),
      ...stale.map((key) => `entry in role-matrix.table.ts for a route that does not exist: ${key}`),
    ];
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
    expect(registered.length).toBeGreaterThan(10);
  });

  for (const [key, entry] of Object.entries(roleMatrix)) {
    it(key, async () => {
      const route = routes.get(key);
      expect(route, `${key} is not a registered route`).toBeDefined();
      const access = route!.roles;
      const method = route!.method;
      const listed = Object.keys(entry).filter((k) => k !== 'Ids' && k !== 'IdsRefused') as Array<
        RoleName | 'Anonymous'
      >;
      expect(listed.length, `${key}: the entry has no sample`).toBeGreaterThan(0);

      // The table must agree with the route's declared access.
      const allowed = allowedRoles(access);
      const allowedNames = allowed.map((r) => roleNames[r]);
      if (access === 'public') {
        expect(listed, `${key} is public: give an 'Anonymous' sample`).toContain('Anonymous');
      } else {
        expect(listed, `${key}: 'Anonymous' sample on a route that needs a token`).not.toContain('Anonymous');
        for (const name of listed)
          expect(allowedNames, `${key}: the table lists ${name}, but the route does not allow it`).toContain(name);
        if (access !== 'authenticated') {
          for (const name of allowedNames) expect(listed, `${key}: allowed role ${name} has no sample`).toContain(name);
        }
      }

      // Each sample is resolved once (a fixture runs once per route and role).
      const resolved = new Map<string, MatrixRequest>();
      const requestFor = async (name: RoleName | 'Anonymous') => {
        if (!resolved.has(name)) resolved.set(name, await resolve(entry[name]!));
        return resolved.get(name)!;
      };
      // Requests for the checks that must be refused come from the first plain (side-effect free) sample,
      // else from the first sample; the auth hook answers before any validation or handler runs, so
      // the resource stays intact for the allowed call.
      const firstPlain = listed.map((name) => entry[name]).find((s) => typeof s !== 'function') as
        MatrixRequest | undefined;
      const probe = firstPlain ?? (await requestFor(listed[0]));
      const probeUrl = urlOf(key, probe);
      const probeBody = probe.body;

      if (access === 'public') {
        const request = await requestFor('Anonymous');
        const res = await t.request(method, urlOf(key, request), { body: request.body });
        expect(res.status, `${key} anonymous: ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(300);
        return;
      }

      expectProblem(await t.request(method, probeUrl, { body: probeBody }), 401, `${key} without token`);
      for (const role of allRoles.filter((r) => !allowed.includes(r))) {
        const name = roleNames[role];
        expectProblem(
          await t.request(method, probeUrl, { as: demoUsers[name], body: probeBody }),
          403,
          `${key} as ${name}`,
        );
      }

      for (const name of listed as RoleName[]) {
        const request = await requestFor(name);
        const res = await t.request(method, urlOf(key, request), {
          as: request.user ?? demoUsers[name],
          body: request.body,
        });
        expect(res.status, `${key} as ${name}: ${res.status} ${res.text.slice(0, 400)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${key} as ${name}: ${res.status} ${res.text.slice(0, 400)}`).toBeLessThan(300);
      }

      await checkIdsColumn(key, route!, entry, { url: probeUrl, body: probeBody });
    });
  }
});

/** The IDS column: refused unless the route is open to IDS sessions; a guarded route refuses other carts. */
async function checkIdsColumn(
  key: string,
  route: RouteAccessEntry,
  entry: (typeof roleMatrix)[string],
  probe: { url: string; body: unknown },
) {
  expect(
    Boolean(entry.IdsRefused),
    `${key}: an IdsRefused sample belongs exactly to the routes with an IDS guard (config.ids as a function)`,
  ).toBe(route.ids === 'guarded');
  if (route.roles === 'public') return;
  const session = await idsSession(ctx);
  const method = route.method;
  if (!route.ids) {
    expectProblem(
      await t.request(method, probe.url, { token: session.token, body: probe.body }),
      403,
      `${key} in an IDS session`,
    );
    return;
  }
  const sample = entry.Ids ?? entry.Buyer;
  expect(sample, `${key} is open to IDS sessions: give an Ids (or Buyer) sample`).toBeDefined();
  const request = await resolve(sample!);
  const res = await t.request(method, urlOf(key, request), {
    token: request.token ?? session.token,
    body: request.body,
  });
  expect(res.status, `${key} in an IDS session: ${res.status} ${res.text.slice(0, 400)}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `${key} in an IDS session: ${res.status} ${res.text.slice(0, 400)}`).toBeLessThan(300);
  if (route.ids === 'guarded') {
    const refused = await resolve(entry.IdsRefused!);
    expectProblem(
      await t.request(method, urlOf(key, refused), { token: refused.token ?? session.token, body: refused.body }),
      403,
      `${key} in an IDS session, another cart of the partner`,
    );
  }
}
