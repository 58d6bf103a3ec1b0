/**
 * The read-model cache (http/read-model-cache.ts, migration 0215): the home page's and the product page's answers
 * are kept per caller in each API process; a repeat answer costs no statement, a change committed anywhere reaches
 * a second process through NOTIFY read_model_changes, one partner never gets another's answer, a process's own
 * write is seen by its next read, and without its LISTEN connection a process keeps nothing.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureSettingKey } from '@shk/contracts';
import type { Runtime } from '../../src/runtime.ts';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';
import { changeAndAwaitNotifications, listenerPids } from '../support/notifications.ts';
import { recordStatements, type StatementRecorder } from '../support/statements.ts';

const BUYER = '00000000-0000-4000-8000-000000000001';
const RELATIONS = '/v1/SupplierCustomers?RelationStatusIds=1&PageSize=100&Page=1';

let t: TestApp;
let second: Runtime & { baseUrl: string };
/** Statements the second process sent on its main pool since the last reset. */
let statements: StatementRecorder;
/** The reads of the calls below (and the auth hook's); background jobs (transmission, mail, pg-boss) share the pool. */
const READS = /supplier_customers|business_partners|custom_parameter|FROM units|FROM users|FROM revoked_grants/;

beforeAll(async () => {
  t = await startTestApp();
  second = await startSecondRuntime(t);
  statements = recordStatements(second.pool);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function call(base: string, url: string, token: string, method = 'GET') {
  statements.clear();
  const response = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    statements: statements.texts.filter((s) => READS.test(s)),
  };
}
const onSecond = (url: string, token: string) => call(second.baseUrl, url, token);
const onFirst = (url: string, token: string, method = 'GET') => call(t.baseUrl, url, token, method);

/** Runs a change on the database and waits until both processes' listeners have its notification. */
const change = (sql: string, params: unknown[]) =>
  changeAndAwaitNotifications(
    t.pool,
    [() => t.app.readModels.notifications, () => second.app.readModels.notifications],
    sql,
    params,
  );
const listeners = () => listenerPids(t.pool, 'read_model_changes');

describe('read-model cache', () => {
  it('answers a repeat call of the home page without a statement, byte for byte the same', async () => {
    const token = await t.token('einkauf@example.com');
    await eventually(async () => second.app.readModels.connected, 5_000);
    for (const url of [
      '/v1/UserProfile',
      RELATIONS,
      '/v1/SupplierCustomers/SuppliersWithoutRelation',
      `/v1/ConfigurationValues/${FeatureSettingKey.NonProductPromotionSlide}`,
      '/v1/KitchenConfigurator/Slide',
      '/v1/Units',
    ]) {
      const first = await onSecond(url, token);
      expect(first.status, url).toBe(200);
      const hits = second.app.readModels.hits;
      const again = await onSecond(url, token);
      expect(again.body, url).toEqual(first.body);
      expect(again.statements, url).toEqual([]);
      // The slide's reads are kept as values, its answer (a signed link) is made per call.
      if (!url.includes('Slide')) expect(second.app.readModels.hits, url).toBe(hits + 1);
    }
  });

  it('keeps the compressed copy: a repeat answer is the same bytes with the same encoding, without compressing again', async () => {
    const token = await t.token('einkauf@example.com');
    for (const [acceptEncoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const get = async () => {
        const res = await undiciRequest(`${second.baseUrl}/v1/ProductTree`, {
          headers: { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding },
        });
        const raw = Buffer.from(await res.body.arrayBuffer());
        return { encoding: res.headers['content-encoding'], vary: res.headers.vary, raw };
      };
      const first = await get();
      expect(first.encoding).toBe(acceptEncoding);
      const hits = second.app.readModels.hits;
      const compressed = second.app.readModels.compressedHits;
      const again = await get();
      expect(second.app.readModels.hits).toBe(hits + 1);
      expect(second.app.readModels.compressedHits).toBe(compressed + 1);
      expect(again.encoding).toBe(acceptEncoding);
      expect(again.vary).toContain('accept-encoding');
      expect(JSON.parse(decode(again.raw).toString())).toEqual(JSON.parse(decode(first.raw).toString()));
      // And plain for a client without compression.
      const plain = await onSecond('/v1/ProductTree', token);
      expect(plain.body).toEqual(JSON.parse(decode(again.raw).toString()));
    }
  });

  it('a relation changed on the database reaches a second process at once', async () => {
    const token = await t.token('einkauf@example.com');
    const before = (await onSecond(RELATIONS, token)).body;
    expect(before.items.length).toBeGreaterThan(0);
    const relation = before.items[0];
    await change('UPDATE supplier_customers SET supplier_customer_number = $2 WHERE id = $1', [
      relation.id,
      'K-NEU-4711',
    ]);
    try {
      const after = await onSecond(RELATIONS, token);
      expect(after.body.items.find((r: { id: number }) => r.id === relation.id).supplierCustomerNumber).toBe(
        'K-NEU-4711',
      );
      expect(after.statements.length).toBeGreaterThan(0);
    } finally {
      await change('UPDATE supplier_customers SET supplier_customer_number = $2 WHERE id = $1', [
        relation.id,
        relation.supplierCustomerNumber,
      ]);
    }
    expect((await onSecond(RELATIONS, token)).body).toEqual(before);
  });

  it("another partner never gets a cached answer: each caller's lists are its current partner's", async () => {
    const erika = await t.token('einkauf@example.com');
    const bernd = await t.token('einkauf2@example.com');
    const buyersOf = async (token: string) => {
      const { body } = await onSecond(RELATIONS, token);
      return [...new Set(body.items.map((r: { buyer: { bpNumber: string } }) => r.buyer.bpNumber))];
    };
    for (let i = 0; i < 2; i++) {
      expect(await buyersOf(erika)).toEqual(['100001']);
      expect(await buyersOf(bernd)).toEqual(['100003']);
    }
    // The same user after a partner switch on the other process: the other partner's list, not the kept one.
    expect((await call(t.baseUrl, '/v1/UserProfile', erika)).body.currentBpNumber).toBe('100001');
    const switched = await fetch(`${t.baseUrl}/v1/UserProfile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${erika}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bpNumber: '100002' }),
    });
    expect(switched.status).toBe(204);
    try {
      await eventually(async () => (await onSecond('/v1/UserProfile', erika)).body.currentBpNumber === '100002', 2_000);
      const buyers = await buyersOf(erika);
      expect(buyers.every((bp) => bp === '100002')).toBe(true);
    } finally {
      await t.pool.query(`UPDATE users SET current_bp_number = '100001' WHERE id = $1`, [BUYER]);
      await eventually(async () => (await onSecond('/v1/UserProfile', erika)).body.currentBpNumber === '100001', 2_000);
    }
    expect(await buyersOf(erika)).toEqual(['100001']);
  });

  it('the product page: a favourite set on one process is seen by its next read and by the other process', async () => {
    const token = await t.token('einkauf@example.com');
    const {
      rows: [offer],
    } = await t.pool.query<{ id: string; manufacturer_id: string; manufacturer_pid: string }>(
      `SELECT o.product_instance_id AS id, p.manufacturer_id, p.manufacturer_pid
         FROM product_offers o JOIN products p ON p.id = o.product_no ORDER BY 1 LIMIT 1`,
    );
    const q = encodeURIComponent;
    const page = `/v1/Product/ByManufacturerData?manufacturerId=${q(offer.manufacturer_id)}&manufacturerPid=${q(offer.manufacturer_pid)}&productInstanceId=${q(offer.id)}`;
    const details = `/v1/Product/Details?productInstanceId=${q(offer.id)}`;
    for (const base of [t.baseUrl, second.baseUrl]) {
      expect((await call(base, page, token)).body.isFavorite).toBe(false);
      expect((await call(base, details, token)).status).toBe(200);
    }
    const hits = second.app.readModels.hits;
    expect((await onSecond(page, token)).body.isFavorite).toBe(false);
    expect(second.app.readModels.hits).toBe(hits + 1);

    const seen = second.app.readModels.notifications;
    expect((await onFirst(`/v1/FavoriteProducts?productInstanceId=${q(offer.id)}`, token, 'POST')).status).toBe(201);
    try {
      // The writing process's next read, without waiting for anything.
      expect((await onFirst(page, token)).body.isFavorite).toBe(true);
      await eventually(async () => second.app.readModels.notifications > seen, 1_000);
      expect((await onSecond(page, token)).body.isFavorite).toBe(true);
      // Another user of the same partner: not the favourite (favourites are per user).
      const other = await onSecond(page, await t.token('einkauf2@example.com'));
      expect(other.body.isFavorite).toBe(false);
    } finally {
      await onFirst(`/v1/FavoriteProducts?productInstanceId=${q(offer.id)}`, token, 'DELETE');
    }
    expect((await onFirst(page, token)).body.isFavorite).toBe(false);
  });

  it('the cart overview: a line added on one process is counted by its next overview and by the other process', async () => {
    const token = await t.token('einkauf@example.com');
    const json = (body: unknown) => ({
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const created = await fetch(`${t.baseUrl}/v1/MultiCarts`, json({ name: 'Zwischenspeicher' }));
    expect(created.status).toBe(201);
    const cartId = (await created.json()).id;
    const countOn = async (base: string) => {
      const { body } = await call(base, '/v1/MultiCarts', token);
      return body.find((c: { id: number }) => c.id === cartId).itemCount;
    };
    for (const base of [t.baseUrl, second.baseUrl]) expect(await countOn(base)).toBe(0);
    // The new cart's notification may reach the second process after its first overview (a loaded machine): that
    // overview is then not kept. Once every change before now has arrived, the next overview is kept and then hit.
    await second.app.readModels.synced();
    expect(await countOn(second.baseUrl)).toBe(0);
    const hits = second.app.readModels.hits;
    expect(await countOn(second.baseUrl)).toBe(0);
    expect(second.app.readModels.hits).toBe(hits + 1);
    const {
      rows: [offer],
    } = await t.pool.query<{ id: string }>(
      `SELECT o.product_instance_id AS id FROM product_offers o
         JOIN supplier_customers r ON r.supplier_bp_number = o.supplier_bp_number
        WHERE r.buyer_bp_number = '100001' AND r.relation_status_id = 1 AND r.is_active AND NOT o.price_on_demand
          AND o.net_price IS NOT NULL AND coalesce(o.min_order_quantity, 1) <= 1
        ORDER BY 1 LIMIT 1`,
    );
    const seen = second.app.readModels.notifications;
    const added = await fetch(`${t.baseUrl}/v1/CartItems`, json({ cartId, productInstanceId: offer.id, quantity: 1 }));
    expect(added.status).toBe(201);
    try {
      expect(await countOn(t.baseUrl)).toBe(1);
      await eventually(async () => second.app.readModels.notifications > seen, 1_000);
      expect(await countOn(second.baseUrl)).toBe(1);
    } finally {
      await fetch(`${t.baseUrl}/v1/MultiCarts/${cartId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
  });

  it('a setting changed on the database reaches the home page of a second process', async () => {
    const token = await t.token('einkauf@example.com');
    const url = `/v1/ConfigurationValues/${FeatureSettingKey.NonProductPromotionSlide}`;
    const before = (await onSecond(url, token)).body;
    expect(before.values).not.toContain('Neue Aktion');
    await change(`INSERT INTO custom_parameter_values (key, value) VALUES ($1, 'Neue Aktion')`, [
      FeatureSettingKey.NonProductPromotionSlide,
    ]);
    try {
      expect((await onSecond(url, token)).body.values).toContain('Neue Aktion');
    } finally {
      await change(`DELETE FROM custom_parameter_values WHERE key = $1 AND value = 'Neue Aktion'`, [
        FeatureSettingKey.NonProductPromotionSlide,
      ]);
    }
    expect((await onSecond(url, token)).body).toEqual(before);
  });

  it('without its LISTEN connection a process keeps nothing and reads per request, and it connects again', async () => {
    const token = await t.token('einkauf@example.com');
    await onSecond(RELATIONS, token);
    expect((await onSecond(RELATIONS, token)).statements).toEqual([]);
    const before = await listeners();
    expect(before).toHaveLength(2);
    await t.pool.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [before]);
    await eventually(async () => !t.app.readModels.connected && !second.app.readModels.connected, 5_000);
    expect(second.app.readModels.size).toBe(0);
    // A change no process is told about is still seen: nothing was kept.
    const relation = (await onSecond(RELATIONS, token)).body.items[0];
    await t.pool.query('UPDATE supplier_customers SET supplier_customer_number = $2 WHERE id = $1', [
      relation.id,
      'K-OHNE-LISTEN',
    ]);
    try {
      const read = await onSecond(RELATIONS, token);
      expect(read.statements.length).toBeGreaterThan(0);
      expect(read.body.items.find((r: { id: number }) => r.id === relation.id).supplierCustomerNumber).toBe(
        'K-OHNE-LISTEN',
      );
      await eventually(async () => second.app.readModels.connected && (await listeners()).length === 2, 10_000);
    } finally {
      await change('UPDATE supplier_customers SET supplier_customer_number = $2 WHERE id = $1', [
        relation.id,
        relation.supplierCustomerNumber,
      ]);
    }
    await onSecond(RELATIONS, token);
    const cached = await onSecond(RELATIONS, token);
    expect(cached.statements).toEqual([]);
    expect(cached.body.items.find((r: { id: number }) => r.id === relation.id).supplierCustomerNumber).toBe(
      relation.supplierCustomerNumber,
    );
  });
});
