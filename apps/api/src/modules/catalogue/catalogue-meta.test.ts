/**
 * Freshness of the catalogue meta cache: a new catalogue version (a new brand, class, …) reaches a
 * listening cache through NOTIFY catalogue_state (migration 0190), not only after its poll interval. The caches here
 * poll once an hour, so without the notification the new brand would stay unknown and the test would time out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { CatalogueMetaCache } from './catalogue-meta.ts';

let t: TestApp;
const caches: CatalogueMetaCache[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  for (const c of caches) await c.close();
  await t?.close();
});

const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];

/** Asks the cache until the brand is known (the test's timeout ends it otherwise). */
async function brandName(cache: CatalogueMetaCache, brandNo: number): Promise<string> {
  for (;;) {
    const name = (await cache.get()).brands.get(brandNo)?.name;
    if (name) return name;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('catalogue meta cache', () => {
  it('sees a new brand of a new catalogue version through NOTIFY catalogue_state, without waiting for its poll', async () => {
    const listening = new CatalogueMetaCache(() => t.pool, { listen: true, pollMs: 3_600_000 });
    const polling = new CatalogueMetaCache(() => t.pool, { pollMs: 3_600_000 });
    caches.push(listening, polling);
    const before = await listening.get();
    await polling.get();
    const [{ no }] = await sql<{ no: number }>('SELECT coalesce(max(brand_no), 0) + 1 AS no FROM brands');
    const [{ manufacturer_id }] = await sql<{ manufacturer_id: string }>(
      'SELECT manufacturer_id FROM manufacturers LIMIT 1',
    );
    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO brands (brand_no, name, manufacturer_id) VALUES ($1, $2, $3)', [
        no,
        'Meta-Frische',
        manufacturer_id,
      ]);
      await client.query('UPDATE catalogue_state SET version = version + 1');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await brandName(listening, no)).toBe('Meta-Frische');
    expect((await listening.get()).version).toBe(before.version + 1);
    // The cache without LISTEN still trusts its version (its poll interval has not passed).
    expect((await polling.get()).brands.has(no)).toBe(false);
  });
});
