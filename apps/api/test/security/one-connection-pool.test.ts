import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAccessEntry } from '../../src/http/auth.ts';
import { hiddenWaitsOf } from '../../src/db/pool.ts';
import { pipelineOptionsOf, runImport } from '../../src/modules/catalogue-import/import-pipeline.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import {
  demoUsers,
  idsSession,
  matrixUrl,
  roleMatrix,
  type MatrixContext,
  type MatrixRequest,
  type MatrixSample,
} from '../role-matrix.table.ts';

/**
 * No code path holds one database connection while it waits for another (docs/security.md, "Fair use of the
 * database"): every /v1 route runs its role-matrix sample – and its IDS sample – on an API whose pool has a single
 * connection. Holding the transaction's connection and asking the pool for a second one throws at once here
 * (strictConnectionUse, db/pool.ts). Any other hidden wait – a connection held, outside a transaction, by code that
 * then waits for the pool (the mail sweeper's cluster lock once did, every 15 s) – only ends by the strict pool's connect
 * timeout: the pool records it with the holders' stacks, and every test fails while one is recorded, so the file ends
 * soon after the first one, naming where it waited and who held the connection.
 */
let t: TestApp;
let routes: Map<string, RouteAccessEntry>;
let ctx: MatrixContext;
/**
 * The test's own SQL (fixtures, waiting for imports) runs on a pool of its own, and so do catalogue imports: an import
 * run is background work with sessions of its own (docs/security.md), not a request path, so this API runs none
 * (CATALOGUE_IMPORT_WORKER=off) and the test plays the import worker node, as a deployment may.
 */
let testPool: pg.Pool;
let importWorker: { stop: boolean; done: Promise<void> };

/** Runs every pending catalogue import on the test's pool until stopped. */
async function runPendingImports(worker: { stop: boolean }) {
  while (!worker.stop) {
    const { rows } = await testPool.query<{ id: string }>(
      "SELECT id FROM catalogue_imports WHERE status IN ('Pending', 'InProgress') ORDER BY id",
    );
    for (const { id } of rows) await runImport(testPool, Number(id), pipelineOptionsOf(t.config));
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await startTestApp({
    env: { DATABASE_POOL_MAX: '1', CATALOGUE_IMPORT_WORKER: 'off' },
    strictConnectionUse: true,
  });
  routes = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r]));
  testPool = new pg.Pool({ connectionString: t.databaseUrl, max: 8 });
  const worker = { stop: false };
  importWorker = Object.assign(worker, { done: runPendingImports(worker) });
  const fixtures = new Map<string, Promise<unknown>>();
  ctx = {
    t,
    sql: async (text, params = []) => (await testPool.query(text, params)).rows,
    once: (key, create) => {
      if (!fixtures.has(key)) fixtures.set(key, create());
      return fixtures.get(key) as Promise<never>;
    },
  };
});
afterAll(async () => {
  if (importWorker) {
    importWorker.stop = true;
    await importWorker.done;
  }
  await testPool?.end();
  await t?.close();
});

/**
 * Background work of an earlier sample (a catalogue import run keeps its connection for the whole run) may hold the
 * one connection for a while: each route starts once the pool is free again and no import is pending or running, so
 * what is measured is the route.
 */
async function poolFree() {
  expectNoHiddenWait();
  const until = Date.now() + 60_000;
  const importsRunning = async () =>
    Number(
      (await testPool.query("SELECT count(*) AS n FROM catalogue_imports WHERE status IN ('Pending', 'InProgress')"))
        .rows[0].n,
    ) > 0;
  while (t.pool.totalCount > t.pool.idleCount || t.pool.waitingCount > 0 || (await importsRunning())) {
    if (Date.now() > until) throw new Error('the pool stays busy');
    await new Promise((r) => setTimeout(r, 50));
    expectNoHiddenWait();
  }
}

function expectNoHiddenWait() {
  const describeWait = ({ waiter, holders }: { waiter: string; holders: string[] }) =>
    `waited at\n${waiter}\nwhile held by\n${holders.join('\n--\n') || '(nobody: the connection was being opened)'}`;
  expect(hiddenWaitsOf(t.pool).map(describeWait), 'a wait for the one connection ended only by the timeout').toEqual(
    [],
  );
}

const resolve = async (sample: MatrixSample): Promise<MatrixRequest> =>
  typeof sample === 'function' ? sample(ctx) : sample;

describe('every route on a one-connection pool', () => {
  it('the API runs on one connection', () => {
    expect(t.pool.options.max).toBe(1);
  });

  for (const [key, entry] of Object.entries(roleMatrix)) {
    it(key, async () => {
      const route = routes.get(key);
      expect(route, key).toBeDefined();
      const [role, sample] = Object.entries(entry).find(([name]) => name !== 'Ids' && name !== 'IdsRefused')!;
      await poolFree();
      const request = await resolve(sample!);
      await poolFree();
      const url = matrixUrl(key.split(' ')[1], request);
      const as = role === 'Anonymous' ? undefined : (request.user ?? demoUsers[role as keyof typeof demoUsers]);
      const res = await t.request(route!.method, url, { as, token: request.token, body: request.body });
      expect(res.status, `${key} as ${role}: ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(300);
      expect(res.status).toBeGreaterThanOrEqual(200);
      if (route!.ids && route!.roles !== 'public') {
        const ids = await resolve((entry.Ids ?? entry.Buyer)!);
        const session = await idsSession(ctx);
        await poolFree();
        const idsRes = await t.request(route!.method, matrixUrl(key.split(' ')[1], ids), {
          token: ids.token ?? session.token,
          body: ids.body,
        });
        expect(idsRes.status, `${key} in an IDS session: ${idsRes.status} ${idsRes.text.slice(0, 300)}`).toBeLessThan(
          300,
        );
      }
    });
  }

  it('no wait for the connection ended by the timeout, also not in background work (the sweepers ran meanwhile)', async () => {
    // The sweepers run at start and every 15 s: let one more round of them pass on the one connection.
    await t.mail.sweep();
    await poolFree();
    expectNoHiddenWait();
  });
});
