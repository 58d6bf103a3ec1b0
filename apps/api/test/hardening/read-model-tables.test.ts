/**
 * Guard of the read-model cache (http/read-model-cache.ts): a kept answer or value must read only tables it declares
 * (its `tables`, whose writes notify read_model_changes through the statement triggers of migrations 0215/0220), or
 * what its `vary` covers. A table read but not declared leaves the answer stale until some other change: users would
 * see old data (a relation, a setting, a price) for as long as the process runs.
 *
 * How: each cached route is called over HTTP for the roles that reach it, and the server's request listener runs the
 * request inside an AsyncLocalStorage scope; pg's Client and Pool query methods record every statement sent in that
 * scope (also on the catalogue's own pool), and a value read through readModels.read() records its loader's
 * statements apart, under its own key and tables. Each statement's plan (EXPLAIN (FORMAT JSON), with its parameters)
 * names the relations it reads; the portal's own SQL functions are found by name in the text (a plan does not show
 * what a function reads). The declared tables are the ones the cache keeps the entry with (keep()).
 *
 * Each route is first called once unrecorded (the auth hook reads the caller — the whole caller is part of the key and
 * the caller cache follows auth_changes — and in-process snapshots such as the catalogue meta load, which the route's
 * `vary` covers), then twice recorded with nothing kept (the first after the route's `prepare`, e.g. stored cart totals
 * dropped so that the overview prices its lines).
 *
 * Also checked: every declared table has an enabled statement trigger on insert, update and delete; the statements
 * use the time only as today's Berlin date (part of the key); every route with `readModel:` in the sources and every
 * user of readModels.read() is called here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUSINESS_TIME_ZONE, businessToday, FeatureSettingKey } from '@shk/contracts';
import { DAY_START_MARGIN_MS } from '../../src/http/read-model-cache.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import {
  demoUsers,
  matrixUrl,
  roleMatrix,
  type MatrixContext,
  type MatrixRequest,
  type MatrixRole,
} from '../role-matrix.table.ts';

interface Statement {
  text: string;
  values: unknown[];
}
/** What one recorded route call (or one value's load) sent and kept. */
interface Scope {
  statements: Map<string, Statement>;
  /** Entries the cache kept during the call, with their declared tables. */
  kept: { key: string; tables: readonly string[] }[];
  /** Values read through readModels.read() during the call. */
  values: { key: string; tables: readonly string[]; scope: Scope }[];
  /** The call counted as a write (readModels.wrote(): this process's next cached read syncs first). */
  wrote: boolean;
}
const newScope = (): Scope => ({ statements: new Map(), kept: [], values: [], wrote: false });
const scopes = new AsyncLocalStorage<Scope>();
/** The scope of the next request that carries the x-read-model-guard header. */
let recording: Scope | undefined;

function record(args: unknown[]) {
  const scope = scopes.getStore();
  if (!scope) return;
  const [first, second] = args;
  const config = (typeof first === 'string' ? { text: first } : first) as { text?: unknown; values?: unknown[] };
  if (typeof config?.text !== 'string') return;
  const values = Array.isArray(second) ? second : Array.isArray(config.values) ? config.values : [];
  scope.statements.set(`${config.text}\u0000${JSON.stringify(values)}`, { text: config.text, values });
}

type QueryFn = (...args: unknown[]) => unknown;
const clientProto = pg.Client.prototype as unknown as { query: QueryFn };
const poolProto = pg.Pool.prototype as unknown as { query: QueryFn };
const originalClientQuery = clientProto.query;
const originalPoolQuery = poolProto.query;

let t: TestApp;
/** Per table with a read_model_changes trigger: the events it fires on (pg_trigger.tgtype bits). */
let triggers: Map<string, { insert: boolean; update: boolean; delete: boolean; statement: boolean }>;
/** The portal's own SQL functions (a plan does not show the tables they read). */
let functions: string[];

beforeAll(async () => {
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    record(args);
    return originalClientQuery.apply(this, args);
  };
  poolProto.query = function (this: unknown, ...args: unknown[]) {
    record(args);
    return originalPoolQuery.apply(this, args);
  };
  t = await startTestApp();
  await insertTestOffers(t.pool);
  const { rows } = await t.pool.query<{ table: string; type: number }>(
    `SELECT c.relname AS table, g.tgtype AS type FROM pg_trigger g
       JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_proc p ON p.oid = g.tgfoid
      WHERE p.proname = 'read_model_changes_notify' AND g.tgenabled <> 'D'`,
  );
  triggers = new Map(
    rows.map((r) => [
      r.table,
      {
        statement: (r.type & 1) === 0,
        insert: (r.type & 4) !== 0,
        delete: (r.type & 8) !== 0,
        update: (r.type & 16) !== 0,
      },
    ]),
  );
  functions = (
    await t.pool.query<{ name: string }>(
      `SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prokind = 'f'`,
    )
  ).rows.map((r) => r.name);

  // Requests marked by the test run inside the recording scope (everything they cause inherits it).
  const server = t.app.server;
  const listeners = server.listeners('request') as ((...args: unknown[]) => void)[];
  expect(listeners).toHaveLength(1);
  const [listener] = listeners;
  server.removeListener('request', listener);
  server.on('request', (req, res) => {
    const scope = req.headers['x-read-model-guard'] ? recording : undefined;
    return scope ? scopes.run(scope, () => listener(req, res)) : listener(req, res);
  });
  // What the cache keeps, and the values read through it (their loads recorded apart).
  const cache = t.app.readModels;
  const keep = cache.keep.bind(cache);
  cache.keep = (key, ticket, entry) => {
    const kept = keep(key, ticket, entry);
    if (kept) scopes.getStore()?.kept.push({ key, tables: entry.tables });
    return kept;
  };
  const wrote = cache.wrote.bind(cache);
  cache.wrote = async () => {
    const scope = scopes.getStore();
    if (scope) scope.wrote = true;
    await wrote();
  };
  const read = cache.read.bind(cache);
  cache.read = (key, tables, load) => {
    const outer = scopes.getStore();
    if (!outer) return read(key, tables, load);
    return read(key, tables, () => {
      const scope = newScope();
      outer.values.push({ key, tables, scope });
      return scopes.run(scope, load);
    });
  };
});
afterAll(async () => {
  clientProto.query = originalClientQuery;
  poolProto.query = originalPoolQuery;
  await t?.close();
});

/**
 * Tables an answer may read without declaring them because no request, job, import or seed step of a running portal
 * writes them (only migrations), and the portal's SQL functions (as `function name()`) that read no table. None today.
 */
const STATIC: Record<string, string> = {};

/** Reads that a route's `vary` covers: the catalogue meta's version check (the version is part of the key). */
const VARY_READS: Record<string, string[]> = {
  '/v1/ProductTree': ['catalogue_state'],
  '/v1/Product/Details': ['catalogue_state'],
  '/v1/Product/ByManufacturerData': ['catalogue_state'],
};

/** Time in SQL other than today's Berlin date (which is part of every key). */
const TIME =
  /\b(now\s*\(\s*\)|current_date|current_timestamp|localtimestamp|localtime|current_time|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday)\b/i;
const BERLIN_DAY = /\(\s*now\s*\(\s*\)\s+AT\s+TIME\s+ZONE\s+'Europe\/Berlin'\s*\)\s*::\s*date/gi;

/** The relations a statement reads (its plan's relation names), the portal's functions it calls, the time it uses. */
async function readsOf(statement: Statement): Promise<string[]> {
  const found = new Set<string>();
  for (const name of functions) {
    if (new RegExp(`\\b${name}\\s*\\(`, 'i').test(statement.text)) found.add(`function ${name}()`);
  }
  if (TIME.test(statement.text.replace(BERLIN_DAY, ''))) found.add('the time (not only the Berlin day)');
  if (!/^\s*(\(\s*)*(WITH|SELECT|INSERT|UPDATE|DELETE|VALUES|TABLE)\b/i.test(statement.text)) return [...found];
  const { rows } = await t.pool.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Relation Name' && typeof value === 'string') found.add(value);
        else walk(value);
      }
    }
  };
  walk(rows[0]['QUERY PLAN']);
  return [...found];
}

interface Finding {
  what: string;
  reads: string;
  statement: string;
}

async function undeclared(what: string, scope: Scope, tables: readonly string[], allowed: string[] = []) {
  const findings: Finding[] = [];
  for (const statement of scope.statements.values()) {
    for (const read of await readsOf(statement)) {
      if (tables.includes(read) || allowed.includes(read) || read in STATIC) continue;
      findings.push({ what, reads: read, statement: statement.text.replace(/\s+/g, ' ').trim().slice(0, 200) });
    }
  }
  for (const table of tables) {
    const trigger = triggers.get(table);
    const complete =
      trigger?.statement && trigger.update && (table === 'catalogue_state' || (trigger.insert && trigger.delete));
    if (!complete)
      findings.push({ what, reads: table, statement: 'declared, but no complete read_model_changes trigger' });
  }
  return findings;
}

/** Drops everything the cache holds (an unknown table's notification) and waits until it has arrived. */
async function dropAll() {
  await t.pool.query(`SELECT pg_notify('read_model_changes', 'read-model-tables.test')`);
  await t.app.readModels.synced();
}

/** A GET of `url`, or with `body` a POST of it (the search). */
const guarded = async (url: string, email: string, body?: unknown) => {
  const headers = { authorization: `Bearer ${await t.token(email)}`, 'x-read-model-guard': '1' };
  const response = await fetch(
    `${t.baseUrl}${url}`,
    body === undefined
      ? { headers }
      : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const text = await response.text();
  expect(response.status, `${url} as ${email}: ${text.slice(0, 300)}`).toBe(200);
};

/**
 * What a cached route reads beyond its declaration, called as a user: once unrecorded, then twice recorded with
 * nothing kept (`prepare` before the first). Its answer must be kept at least once (a notification while it is read,
 * e.g. of the totals the overview stores, keeps nothing that time).
 */
async function check(url: string, email: string, prepare?: () => Promise<unknown>): Promise<Finding[]> {
  recording = undefined;
  await dropAll();
  await guarded(url, email);
  const scope = newScope();
  for (let round = 0; round < 2 || (!scope.kept.some((k) => k.key.startsWith(`${url}\u0000`)) && round < 6); round++) {
    if (round === 0) await prepare?.();
    await dropAll();
    recording = scope;
    await guarded(url, email);
    recording = undefined;
  }
  const entry = scope.kept.find((k) => k.key.startsWith(`${url}\u0000`));
  expect(entry, `${url} as ${email}: the answer was never kept`).toBeDefined();
  const route = url.replace(/\?.*/, '');
  const findings = await undeclared(`${route} (${email})`, scope, entry!.tables, VARY_READS[route]);
  for (const value of scope.values)
    findings.push(...(await undeclared(`value ${value.key}`, value.scope, value.tables)));
  return findings;
}

/** A route that is not kept itself but reads values through the cache: the values' loads against their tables. */
async function checkValues(url: string, email: string, body?: unknown): Promise<Finding[]> {
  recording = undefined;
  await guarded(url, email, body);
  await dropAll();
  const scope = newScope();
  recording = scope;
  await guarded(url, email, body);
  recording = undefined;
  expect(scope.values.length, `${url} as ${email}: no value read through the cache`).toBeGreaterThan(0);
  const findings: Finding[] = [];
  for (const value of scope.values)
    findings.push(...(await undeclared(`value ${value.key}`, value.scope, value.tables)));
  return findings;
}

const BUYER = 'einkauf@example.com';
const SELLER = 'verkauf@example.com';
const ADMIN = 'admin@example.com';
const SUPPORT = 'support@example.com';
const OPERATOR = 'betrieb@example.com';
const GUEST = 'gast@example.com'; // role None
const q = encodeURIComponent;

/** The routes checked below (paths); compared with the sources' `readModel:` routes. */
const CHECKED_ROUTES = new Set([
  '/v1/UserProfile',
  '/v1/SupplierCustomers',
  '/v1/SupplierCustomers/SuppliersWithoutRelation',
  '/v1/ConfigurationValues/:key',
  '/v1/Units',
  '/v1/ProductTree',
  '/v1/Product/Details',
  '/v1/Product/ByManufacturerData',
  '/v1/MultiCarts',
]);
/**
 * Source files that read values through the cache (readModels handed on), checked by checkValues below. The search
 * hits' store follows the cache's notifications for its own tables (products, offers, prices): its freshness is
 * tested in test/search-hit-store.test.ts.
 */
const VALUE_READERS = [
  'modules/configurator/configurator.routes.ts',
  'modules/catalogue/catalogue.routes.ts',
  'modules/catalogue/catalogue.context.ts',
  'modules/catalogue/offers.ts',
  'modules/catalogue/search/hit-store.ts',
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * Followed tables whose writes by a GET change no answer: cart_totals stores totals the overview computes from the
 * cart's lines (the same numbers whether read stored or computed).
 */
const DERIVED: Record<string, string> = { cart_totals: 'stored totals, equal to the computed ones' };

type Case = [url: string, users: string[], prepare?: () => Promise<unknown>];
let prepared: Promise<Case[]> | undefined;
/** The cached routes' calls with the roles that reach them (a cart line first, so that the overview prices one). */
function routeCases(): Promise<Case[]> {
  prepared ??= (async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Wächter' } });
    expect(cart.status).toBe(201);
    const line = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 2 },
    });
    expect(line.status).toBe(201);
    const {
      rows: [offer],
    } = await t.pool.query<{ manufacturer_id: string; manufacturer_pid: string }>(
      `SELECT p.manufacturer_id, p.manufacturer_pid FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.product_instance_id = $1`,
      [offers.nordbad],
    );
    const byManufacturer = `/v1/Product/ByManufacturerData?manufacturerId=${q(offer.manufacturer_id)}&manufacturerPid=${q(offer.manufacturer_pid)}`;
    const everyone = [BUYER, SELLER, ADMIN];
    return [
      ['/v1/UserProfile', [...everyone, SUPPORT, OPERATOR, GUEST]],
      ['/v1/SupplierCustomers?RelationStatusIds=1&PageSize=100&Page=1', [BUYER, SELLER]],
      ['/v1/SupplierCustomers?Name=a&SupplierStatusIds=1,2,3&RelationStatusIds=1,2,3,4', [BUYER, SELLER]],
      ['/v1/SupplierCustomers/SuppliersWithoutRelation', [BUYER]],
      [`/v1/ConfigurationValues/${FeatureSettingKey.NonProductPromotionSlide}`, [BUYER, ADMIN, GUEST]],
      ['/v1/Units', [BUYER]],
      ['/v1/ProductTree', [...everyone, GUEST]],
      [`/v1/Product/Details?productInstanceId=${q(offers.nordbad)}`, [...everyone, SUPPORT, OPERATOR]],
      [`${byManufacturer}&productInstanceId=${q(offers.nordbad)}`, everyone],
      [byManufacturer, [BUYER]],
      // Stored totals dropped first: the overview prices the lines, then keeps and reads the stored totals.
      ['/v1/MultiCarts', [BUYER], () => t.pool.query('DELETE FROM cart_totals')],
    ] satisfies Case[];
  })();
  return prepared;
}

describe('read-model cache: what each kept answer reads', () => {
  it('every table a cached route or value reads is declared and notifies (or never changes at runtime)', async () => {
    const findings: Finding[] = [];
    for (const [url, users, prepare] of await routeCases())
      for (const user of users) findings.push(...(await check(url, user, prepare)));
    for (const user of [BUYER, SELLER, ADMIN, GUEST])
      findings.push(...(await checkValues('/v1/KitchenConfigurator/Slide', user)));
    // The search's caller lookups (favourites, relations, supplier settings).
    for (const user of [BUYER, SELLER, ADMIN])
      findings.push(...(await checkValues('/v1/Product/Search', user, { searchTerm: 'ventil' })));
    expect(findings).toEqual([]);
  });

  it('a write to any declared table drops the kept answer (even one that changes no row)', async () => {
    const missed: string[] = [];
    for (const [url, [user]] of await routeCases()) {
      const scope = newScope();
      recording = scope;
      await guarded(url, user);
      recording = undefined;
      const tables = scope.kept.find((k) => k.key.startsWith(`${url}\u0000`))?.tables ?? [];
      for (const table of tables) {
        // Kept now (a notification meanwhile, e.g. of the totals the overview stores, may have dropped it: again).
        let kept = false;
        for (let i = 0; i < 4 && !kept; i++) {
          const hits = t.app.readModels.hits;
          await guarded(url, user);
          kept = t.app.readModels.hits === hits + 1;
        }
        if (!kept) missed.push(`${url} not kept`);
        const { rows } = await t.pool.query<{ column: string }>(
          `SELECT attname AS column FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
            ORDER BY attnum LIMIT 1`,
          [table],
        );
        // A statement trigger fires for a statement that changes no row.
        await t.pool.query(`UPDATE ${table} SET ${rows[0].column} = ${rows[0].column} WHERE false`);
        await t.app.readModels.synced();
        const before = t.app.readModels.hits;
        await guarded(url, user);
        if (t.app.readModels.hits !== before) missed.push(`${url} kept after a write to ${table}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('calls every route the sources mark with readModel and every reader of cached values', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const marked = new Set<string>();
    const readers: string[] = [];
    for (const file of sourceFiles(src)) {
      const relative = path.relative(src, file).split(path.sep).join('/');
      if (relative === 'http/read-model-cache.ts') continue;
      const text = fs.readFileSync(file, 'utf8');
      // The route of each `readModel:` is the last path literal before it.
      for (const match of text.matchAll(/\breadModel:\s/g)) {
        const before = [...text.slice(0, match.index).matchAll(/'(\/v1\/[^']*)'/g)].pop();
        marked.add(before ? before[1] : `${relative}: readModel without a route path before it`);
      }
      if (/\breadModels\b/.test(text) && !/\bapp\.readModels\.(synced|wrote)\(/.test(text)) readers.push(relative);
    }
    expect([...marked].sort()).toEqual([...CHECKED_ROUTES].sort());
    expect(readers.sort()).toEqual([...VALUE_READERS].sort());
  });

  it('no code path writes a followed table with its triggers off (session_replication_role, DISABLE TRIGGER)', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const bypasses: string[] = [];
    for (const file of sourceFiles(src)) {
      const text = fs.readFileSync(file, 'utf8');
      const where = path.relative(src, file);
      if (/session_replication_role/i.test(text)) bypasses.push(`${where}: session_replication_role`);
      for (const m of text.matchAll(/ALTER\s+TABLE\s+(?:ONLY\s+)?"?(\w+)"?\s+DISABLE\s+TRIGGER/gi)) {
        if (triggers.has(m[1])) bypasses.push(`${where}: ${m[0]}`);
      }
    }
    expect(bypasses).toEqual([]);
  });

  it('changes a statement does not name still count: foreign-key cascades and TRUNCATE', async () => {
    // The cart tables count their changes in read_model_versions (migration 0631) instead of notifying.
    const versions = async () =>
      new Map(
        (
          await t.pool.query<{ table_name: string; v: string }>(
            'SELECT table_name, sum(version)::text AS v FROM read_model_versions GROUP BY 1',
          )
        ).rows.map((r) => [r.table_name, BigInt(r.v)]),
      );
    const moved = (before: Map<string, bigint>, after: Map<string, bigint>) =>
      [...after].filter(([table, v]) => v !== before.get(table)).map(([table]) => table);
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Kaskade' } });
    expect(cart.status).toBe(201);
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          as: BUYER,
          body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
        })
      ).status,
    ).toBe(201);
    await t.request('GET', '/v1/MultiCarts', { as: BUYER }); // stores the cart's totals
    let before = await versions();
    // The cart's lines and stored totals go by ON DELETE CASCADE, in statements of Postgres' own.
    await t.pool.query('DELETE FROM carts WHERE id = $1', [cart.body.id]);
    let after = await versions();
    expect(moved(before, after)).toEqual(expect.arrayContaining(['cart_items', 'cart_totals', 'carts']));
    before = after;
    await t.pool.query('TRUNCATE cart_totals');
    after = await versions();
    expect(moved(before, after)).toEqual(['cart_totals']);
  });
  it('a GET route that writes a followed table counts as a write (config.changesReadModels), so its caller reads it next', async () => {
    // Every GET sample of the role matrix, recorded; its statements' writes compared with readModels.wrote().
    const fixtures = new Map<string, Promise<unknown>>();
    const ctx: MatrixContext = {
      t,
      sql: async (text, params = []) => (await t.pool.query(text, params)).rows,
      once: (key, create) => {
        if (!fixtures.has(key)) fixtures.set(key, create());
        return fixtures.get(key) as Promise<never>;
      },
    };
    const unsynced: string[] = [];
    const writers = new Set<string>();
    // The buyer's default cart is made by its first GET (a write the check must see).
    await t.pool.query(`DELETE FROM carts WHERE bp_number = '100001' AND is_default`);
    for (const [key, entry] of Object.entries(roleMatrix)) {
      const [method, route] = key.split(' ');
      if (method !== 'GET') continue;
      for (const [role, sample] of Object.entries(entry) as [MatrixRole, NonNullable<(typeof entry)[MatrixRole]>][]) {
        const request: MatrixRequest = typeof sample === 'function' ? await sample(ctx) : sample;
        const url = matrixUrl(route, request);
        const user = role === 'Anonymous' ? null : (request.user ?? demoUsers[role]);
        const scope = newScope();
        recording = scope;
        const response = await fetch(`${t.baseUrl}${url}`, {
          headers: { ...(user ? { authorization: `Bearer ${await t.token(user)}` } : {}), 'x-read-model-guard': '1' },
        });
        await response.arrayBuffer();
        recording = undefined;
        if (response.status >= 400) continue;
        for (const statement of scope.statements.values()) {
          for (const m of statement.text.matchAll(
            /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE)\s+(?:ONLY\s+)?"?(\w+)"?/gi,
          )) {
            if (!triggers.has(m[1]) || m[1] in DERIVED) continue;
            writers.add(key);
            if (!scope.wrote) unsynced.push(`${key} as ${role} writes ${m[1]}`);
          }
        }
      }
    }
    expect(writers).toContain('GET /v1/MultiCarts/Default');
    expect([...new Set(unsynced)]).toEqual([]);
  });
});

describe('read-model cache: the business day', () => {
  it('keeps nothing in the first seconds of a Berlin day (a database clock behind may still answer for the day before)', async () => {
    // This morning's Berlin midnight (the offset of Berlin at that moment, from Intl). The offset is read at 00:00 UTC,
    // which is still before the clocks change (01:00 UTC): at noon of the days they change it is not midnight's.
    const day = businessToday();
    const offset = new Intl.DateTimeFormat('en', { timeZone: BUSINESS_TIME_ZONE, timeZoneName: 'longOffset' })
      .formatToParts(new Date(`${day}T00:00:00Z`))
      .find((p) => p.type === 'timeZoneName')!
      .value.replace('GMT', '');
    const midnight = Date.parse(`${day}T00:00:00${offset || '+00:00'}`);
    expect(businessToday(new Date(midnight))).toBe(day);
    expect(businessToday(new Date(midnight - 1))).not.toBe(day);
    let loads = 0;
    const load = async () => ++loads;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(midnight + 3_000);
      await t.app.readModels.read('read-model-tables.test:day', ['units'], load);
      await t.app.readModels.read('read-model-tables.test:day', ['units'], load);
      expect(loads).toBe(2);
      vi.setSystemTime(midnight + DAY_START_MARGIN_MS + 1_500);
      await t.app.readModels.read('read-model-tables.test:day', ['units'], load);
      await t.app.readModels.read('read-model-tables.test:day', ['units'], load);
      expect(loads).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
