/**
 * The cart tables in the read-model cache (migration 0631, http/read-model-cache.ts): their writes count in
 * read_model_versions instead of notifying at commit (a notifying commit waits for every other one), the process that
 * answered the write tells the others with one NOTIFY 'versions' outside the transaction, and a change nobody told of
 * (a writer killed after its commit, SQL by hand) is seen by every process within its next version poll.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime.ts';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let second: Runtime & { baseUrl: string };

beforeAll(async () => {
  t = await startTestApp();
  second = await startSecondRuntime(t);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const versionOf = async (table: string) =>
  BigInt(
    (await t.pool.query('SELECT sum(version)::text AS v FROM read_model_versions WHERE table_name = $1', [table]))
      .rows[0].v,
  );

describe('read-model versions of the cart tables', () => {
  it('a cart write commits without NOTIFY and raises its table version; other followed tables still notify', async () => {
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.payload ?? ''));
    await listener.query('LISTEN read_model_changes');
    try {
      const before = await versionOf('carts');
      await t.pool.query(`UPDATE carts SET name = name WHERE bp_number = '100001'`);
      expect(await versionOf('carts')).toBeGreaterThan(before);
      await t.pool.query(`UPDATE units SET sort = sort WHERE code = 'C62'`);
      await eventually(async () => heard.includes('units'), 5_000);
      expect(heard).not.toContain('carts');
    } finally {
      await listener.end();
    }
  });

  it('a cart renamed by hand (nobody told) reaches the cart overview of both processes within the version poll', async () => {
    const token = await t.token('einkauf@example.com');
    const created = await fetch(`${t.baseUrl}/v1/MultiCarts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lager' }),
    });
    expect(created.status).toBe(201);
    const cartId = (await created.json()).id as number;
    try {
      const nameOn = async (base: string) => {
        const response = await fetch(`${base}/v1/MultiCarts`, { headers: { authorization: `Bearer ${token}` } });
        return ((await response.json()) as { id: number; name: string }[]).find((c) => c.id === cartId)?.name;
      };
      // Kept on both processes (a repeat is a hit).
      for (const runtime of [t, second]) {
        await runtime.app.readModels.synced();
        const base = runtime === t ? t.baseUrl : second.baseUrl;
        expect(await nameOn(base)).toBe('Lager');
        const hits = runtime.app.readModels.hits;
        expect(await nameOn(base)).toBe('Lager');
        expect(runtime.app.readModels.hits).toBe(hits + 1);
      }
      await t.pool.query('UPDATE carts SET name = $2 WHERE id = $1', [cartId, 'Lager Nord']);
      // No process was told; each reads the versions every second and drops the overview then.
      for (const base of [t.baseUrl, second.baseUrl])
        await eventually(async () => (await nameOn(base)) === 'Lager Nord', 5_000);
    } finally {
      await fetch(`${t.baseUrl}/v1/MultiCarts/${cartId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
  });

  it('a cart renamed over the API on one process is told to the other at once (NOTIFY versions after the commit)', async () => {
    const token = await t.token('einkauf@example.com');
    const created = await fetch(`${t.baseUrl}/v1/MultiCarts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Baustelle' }),
    });
    const cartId = (await created.json()).id as number;
    try {
      const nameOn = async (base: string) => {
        const response = await fetch(`${base}/v1/MultiCarts`, { headers: { authorization: `Bearer ${token}` } });
        return ((await response.json()) as { id: number; name: string }[]).find((c) => c.id === cartId)?.name;
      };
      await second.app.readModels.synced();
      expect(await nameOn(second.baseUrl)).toBe('Baustelle');
      const seen = second.app.readModels.notifications;
      const listener = new pg.Client({ connectionString: t.databaseUrl });
      await listener.connect();
      const heard: string[] = [];
      listener.on('notification', (m) => heard.push(m.payload ?? ''));
      await listener.query('LISTEN read_model_changes');
      const renamed = await fetch(`${t.baseUrl}/v1/MultiCarts/${cartId}/name`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Baustelle Süd' }),
      });
      expect(renamed.status).toBeLessThan(300);
      // The first process told the others once it had read the versions after its answer.
      await eventually(async () => heard.includes('versions'), 5_000);
      await listener.end();
      await eventually(async () => second.app.readModels.notifications > seen, 5_000);
      expect(await nameOn(second.baseUrl)).toBe('Baustelle Süd');
    } finally {
      await fetch(`${t.baseUrl}/v1/MultiCarts/${cartId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
  });
});
