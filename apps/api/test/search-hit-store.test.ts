/**
 * The search hits' store (modules/catalogue/search/hit-store.ts): a page whose products were shown before is hydrated
 * from memory, and a change committed anywhere – a price, a product's name, a withdrawn offer, a favourite, a
 * relation – shows in the next search of another API process on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductOrderableStatus } from '@shk/contracts';
import type { Runtime } from '../src/runtime.ts';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from './support/test-app.ts';
import { changeAndAwaitNotifications } from './support/notifications.ts';
import { hitRowsOfProducts } from '../src/modules/catalogue/catalogue.repo.ts';
import { HitStore, type HitRows } from '../src/modules/catalogue/search/hit-store.ts';

let t: TestApp;
let second: Runtime & { baseUrl: string };
const BUYER = 'einkauf@example.com';

beforeAll(async () => {
  t = await startTestApp();
  second = await startSecondRuntime(t);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function searchOn(base: string, token: string, body: Record<string, unknown>): Promise<any> {
  const response = await fetch(`${base}/v1/Product/Search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Runs a change on the database and waits until both processes' listeners have its notification. */
const change = (sql: string, params: unknown[]) =>
  changeAndAwaitNotifications(
    t.pool,
    [() => t.app.readModels.notifications, () => second.app.readModels.notifications],
    sql,
    params,
  );

const hitOf = (body: any, productId: string) => body.hits.find((h: any) => h.productId === productId);

describe('search hits from memory', () => {
  it('answers a page shown before without reading its products, and shows changes committed elsewhere at once', async () => {
    const token = await t.token(BUYER);
    await eventually(async () => second.app.readModels.connected && t.app.readModels.connected, 5_000);
    const store = second.app.searchHitStore!;
    const body = { searchTerm: 'ventil', page: 1, pageSize: 20 };
    const first = await searchOn(second.baseUrl, token, body);
    expect(first.hits.length).toBeGreaterThan(4);

    // The same page again: every product from memory.
    const read = store.read;
    const again = await searchOn(second.baseUrl, token, body);
    expect(again.hits).toEqual(first.hits);
    expect(store.read).toBe(read);
    expect(store.size).toBeGreaterThanOrEqual(first.hits.length);
    expect(store.bytes).toBeGreaterThan(0);

    // Hits whose offer has no future price blocks (the price valid today is then the offer's own).
    const blocked = new Set(
      (
        await t.pool.query<{ id: string }>('SELECT DISTINCT product_instance_id AS id FROM catalogue_offer_prices')
      ).rows.map((r) => r.id),
    );
    const [priced, renamed, withdrawn] = first.hits.filter((h: any) => !blocked.has(h.rows.PRODUCTINSTANCE_ID));
    expect(withdrawn).toBeDefined();

    // A lower price (it stays the product's preferred offer), a new name, an offer withdrawn – committed outside the
    // second process.
    await change('UPDATE product_offers SET net_price = 0.07, price_on_demand = false WHERE product_instance_id = $1', [
      priced.rows.PRODUCTINSTANCE_ID,
    ]);
    await change(`UPDATE products SET product_name = product_name || ' (neu)' WHERE product_id = $1`, [
      renamed.productId,
    ]);
    await change(
      `DELETE FROM product_offers WHERE product_no = (SELECT id FROM products WHERE product_id = $1)
         AND product_instance_id NOT IN (SELECT product_instance_id FROM cart_items)`,
      [withdrawn.productId],
    );
    const offersLeft = await t.pool.query(
      'SELECT 1 FROM product_offers WHERE product_no = (SELECT id FROM products WHERE product_id = $1)',
      [withdrawn.productId],
    );

    const after = await searchOn(second.baseUrl, token, body);
    const pricedNow = hitOf(after, priced.productId);
    expect(pricedNow.rows.PRODUCTINSTANCE_ID).toBe(priced.rows.PRODUCTINSTANCE_ID);
    expect(pricedNow.price.value).toBe(0.07);
    expect(hitOf(after, renamed.productId).rows.artikelbeschreibung).toBe(`${renamed.rows.artikelbeschreibung} (neu)`);
    // A product without offers is no hit (the index still lists it until its search row changes).
    if (offersLeft.rowCount === 0) expect(hitOf(after, withdrawn.productId)).toBeUndefined();
    // Read from Postgres after the changes emptied the store, then kept: the page from memory is the same, field for
    // field.
    const readBefore = store.read;
    expect((await searchOn(second.baseUrl, token, body)).hits).toEqual(after.hits);
    expect(store.read).toBe(readBefore);
    // The first process answers the same.
    expect((await searchOn(t.baseUrl, token, body)).hits).toEqual(after.hits);
  });

  it('shows a favourite saved and a relation changed through another process in the next search', async () => {
    const token = await t.token(BUYER);
    const body = { searchTerm: 'heizkörper', page: 1, pageSize: 20 };
    const before = await searchOn(second.baseUrl, token, body);
    const candidate = before.hits.find((h: any) => !h.isFavorite);
    expect(candidate).toBeDefined();

    // Saved through the first process's API: the second hears of favorite_products at the commit.
    const saved = await fetch(
      `${t.baseUrl}/v1/FavoriteProducts?productInstanceId=${encodeURIComponent(candidate.rows.PRODUCTINSTANCE_ID)}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}` } },
    );
    expect(saved.status).toBe(201);
    await eventually(async () => hitOf(await searchOn(second.baseUrl, token, body), candidate.productId).isFavorite);

    // The relations to an orderable hit's supplier end: its offers are no longer orderable (another supplier's
    // offer may now represent the product).
    const orderable = before.hits.find((h: any) => h.productOrderableStatus === ProductOrderableStatus.Orderable);
    expect(orderable).toBeDefined();
    const supplier = orderable.rows.supplierID;
    await change('UPDATE supplier_customers SET is_active = false WHERE supplier_bp_number = $1', [supplier]);
    const now = hitOf(await searchOn(second.baseUrl, token, body), orderable.productId);
    expect(
      now.rows.supplierID !== supplier || now.productOrderableStatus === ProductOrderableStatus.RelationNotActive,
    ).toBe(true);
    expect(now.rows.supplierID === supplier && now.productOrderableStatus === ProductOrderableStatus.Orderable).toBe(
      false,
    );
  });

  it('keeps the same fields as the statement that reads the rows of a page (NUMERIC values as numbers)', async () => {
    await eventually(async () => t.app.readModels.connected, 5_000);
    const ids = (await t.pool.query<{ id: number }>('SELECT id FROM product_search ORDER BY rank LIMIT 60')).rows.map(
      (r) => r.id,
    );
    const store = new HitStore(t.app.readModels, { max: 1_000 });
    try {
      await store.rowsOf(t.pool, ids);
      const read = store.read;
      const kept = await store.rowsOf(t.pool, ids);
      expect(store.read).toBe(read);
      const direct = await hitRowsOfProducts(t.pool, ids, '', null);
      const numeric = (v: unknown) => (v === null ? null : Number(v));
      const normal = (rows: HitRows) => ({
        products: [...rows.products].sort((a, b) => a.id - b.id),
        offers: rows.offers
          .map((o) => ({
            ...o,
            net_price: numeric(o.net_price),
            gross_list_price: numeric(o.gross_list_price),
            price_basis: Number(o.price_basis),
            min_order_quantity: Number(o.min_order_quantity),
          }))
          .sort((a, b) => a.product_instance_id.localeCompare(b.product_instance_id)),
      });
      expect(kept.products.length).toBeGreaterThan(10);
      expect(normal(kept)).toEqual(normal(direct));
    } finally {
      store.close();
    }
  });

  it("keeps only a hit's first picture of its media, in both ways of reading a page", async () => {
    await eventually(async () => t.app.readModels.connected, 5_000);
    const { rows } = await t.pool.query<{ id: number }>(
      'SELECT s.id FROM product_search s ORDER BY s.rank OFFSET 70 LIMIT 1',
    );
    const id = rows[0].id;
    const picture = { file: 'zweites_bild.png', type: 'picture', description: 'Ansicht 2' };
    const media = [
      { file: 'Datenblatt.pdf', type: 'Datenblatt', description: 'Datenblatt' },
      picture,
      { file: 'drittes_bild.png', type: 'picture', description: 'Ansicht 3' },
    ];
    await change('UPDATE products SET media = $2::jsonb WHERE id = $1', [id, JSON.stringify(media)]);
    const store = new HitStore(t.app.readModels, { max: 100 });
    try {
      const kept = await store.rowsOf(t.pool, [id]);
      expect(kept.products.map((p) => p.media)).toEqual([[picture]]);
      const direct = await hitRowsOfProducts(t.pool, [id], '', null);
      expect(direct.products.map((p) => p.media)).toEqual([[picture]]);
      // A product without a picture keeps no media in its hit.
      await change('UPDATE products SET media = $2::jsonb WHERE id = $1', [id, JSON.stringify(media.slice(0, 1))]);
      expect((await store.rowsOf(t.pool, [id])).products.map((p) => p.media)).toEqual([[]]);
    } finally {
      store.close();
    }
  });
});
