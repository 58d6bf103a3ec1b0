import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const buyer = 'einkauf@example.com';
const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];
const url = (id: string) => `/v1/FavoriteProducts?productInstanceId=${encodeURIComponent(id)}`;

describe('FavoriteProducts', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = (
      await sql<{
        product_instance_id: string;
      }>(`SELECT DISTINCT ON (product_no) product_instance_id FROM product_offers
      WHERE supplier_bp_number = '200001' ORDER BY product_no, product_instance_id LIMIT 3`)
    ).map((r) => r.product_instance_id);
  });

  it('adds a favourite (201, again 200), lists it with product details and marks search hits', async () => {
    const created = await t.request('POST', url(ids[0]), { as: buyer });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      productInstanceId: ids[0],
      productDetails: { productInstanceId: ids[0], isFavorite: true },
    });
    expect(created.body.articleNumber).toBe(ids[0].split('~')[1]);
    expect((await t.request('POST', url(ids[0]), { as: buyer })).status).toBe(200);
    const list = await t.request('GET', '/v1/FavoriteProducts', { as: buyer });
    expect(list.status).toBe(200);
    const entry = list.body.find((f: any) => f.productInstanceId === ids[0]);
    expect(entry).toMatchObject({
      brandName: expect.any(String),
      articleShortDescription: expect.any(String),
      productDetails: { isFavorite: true },
    });
    expect(entry.imageUrl === null || entry.imageUrl.startsWith('/v1/Media/Products/')).toBe(true);
    const product = await t.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent(ids[0])}`, {
      as: buyer,
    });
    expect(product.body.isFavorite).toBe(true);
    const hit = await t.request('POST', '/v1/Product/Search', {
      as: buyer,
      body: { searchTerm: product.body.manufacturerPid },
    });
    expect(hit.body.hits[0]).toMatchObject({ isFavorite: true, rows: { PRODUCTINSTANCE_ID: ids[0] } });
  });

  it('are private to the user and the current business partner', async () => {
    await t.request('POST', url(ids[1]), { as: buyer });
    const other = await t.request('GET', '/v1/FavoriteProducts', { as: 'einkauf2@example.com' });
    expect(other.body.map((f: any) => f.productInstanceId)).not.toContain(ids[1]);
    expect((await t.request('DELETE', url(ids[1]), { as: 'einkauf2@example.com' })).status).toBe(404);
    // The product page (its offers come with the caller's favourite flag in one statement) marks it for this user and
    // partner only.
    const { manufacturerId, manufacturerPid } = (
      await t.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent(ids[1])}`, { as: buyer })
    ).body;
    const pageOf = async (as: string) => {
      const q = new URLSearchParams({ manufacturerId, manufacturerPid, productInstanceId: ids[1] });
      const product = await t.request('GET', `/v1/Product/ByManufacturerData?${q}`, { as });
      expect(product.status).toBe(200);
      expect(product.body.productInstanceId).toBe(ids[1]);
      return product.body.isFavorite;
    };
    expect(await pageOf(buyer)).toBe(true);
    expect(await pageOf('einkauf2@example.com')).toBe(false);
    // Switching to the second partner shows that partner's (empty) list.
    expect((await t.request('PUT', '/v1/UserProfile', { as: buyer, body: { bpNumber: '100002' } })).status).toBe(204);
    const second = await t.request('GET', '/v1/FavoriteProducts', { as: buyer });
    expect(second.body.map((f: any) => f.productInstanceId)).not.toContain(ids[1]);
    expect(await pageOf(buyer)).toBe(false);
    await t.request('PUT', '/v1/UserProfile', { as: buyer, body: { bpNumber: '100001' } });
    const back = await t.request('GET', '/v1/FavoriteProducts', { as: buyer });
    expect(back.body.map((f: any) => f.productInstanceId)).toContain(ids[1]);
  });

  it('removes a favourite (204, then 404) and rejects unknown products', async () => {
    await t.request('POST', url(ids[2]), { as: buyer });
    expect((await t.request('DELETE', url(ids[2]), { as: buyer })).status).toBe(204);
    const again = await t.request('DELETE', url(ids[2]), { as: buyer });
    expect(again.status).toBe(404);
    expect(again.body.title).toBe('Favorit nicht gefunden');
    const unknown = await t.request('POST', url('200001~GIBTESNICHT'), { as: buyer });
    expect(unknown.status).toBe(404);
    expect(unknown.body.title).toBe('Produkt nicht gefunden');
    expect((await t.request('POST', '/v1/FavoriteProducts', { as: buyer })).status).toBe(400);
  });

  it('keeps a favourite whose product is gone, without productDetails', async () => {
    const [gone] = await sql<{ product_instance_id: string }>(
      `SELECT product_instance_id FROM product_offers WHERE supplier_bp_number = '200003' ORDER BY 1 LIMIT 1`,
    );
    await t.request('POST', url(gone.product_instance_id), { as: buyer });
    await sql('DELETE FROM product_offers WHERE product_instance_id = $1', [gone.product_instance_id]);
    const list = await t.request('GET', '/v1/FavoriteProducts', { as: buyer });
    const entry = list.body.find((f: any) => f.productInstanceId === gone.product_instance_id);
    expect(entry).toBeDefined();
    expect(entry).not.toHaveProperty('productDetails');
    expect(entry.articleShortDescription).toEqual(expect.any(String));
    expect((await t.request('DELETE', url(gone.product_instance_id), { as: buyer })).status).toBe(204);
  });

  it('buyers only', async () => {
    for (const user of ['verkauf@example.com', 'admin@example.com', 'gast@example.com']) {
      expect((await t.request('GET', '/v1/FavoriteProducts', { as: user })).status).toBe(403);
      expect((await t.request('POST', url(ids[0]), { as: user })).status).toBe(403);
    }
    expect((await t.request('GET', '/v1/FavoriteProducts')).status).toBe(401);
  });
});
