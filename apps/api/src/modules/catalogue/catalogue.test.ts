import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const buyer = 'einkauf@example.com';
const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];
const q = (id: string) => encodeURIComponent(id);

describe('units and product tree', () => {
  it('lists units; a caret marks superscript', async () => {
    const res = await t.request('GET', '/v1/Units', { as: 'gast@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ code: 'C62', shortDescription: 'Stk' });
    expect(res.body).toContainEqual({ code: 'MTK', shortDescription: 'm^2' });
  });

  it('returns the tree from SHKMARKET with product counts, Aktion, and no seller catalogue for buyers', async () => {
    const res = await t.request('GET', '/v1/ProductTree', { as: buyer });
    expect(res.status).toBe(200);
    const root = res.body;
    const [{ total }] = await sql('SELECT count(*)::int AS total FROM products');
    expect(root).toMatchObject({ elementID: 'SHKMARKET', type: 'root', parentID: null, productCount: total });
    const ids = root.children.map((c: any) => c.elementID);
    expect(ids).toEqual([
      'SHKMARKET_1',
      'SHKMARKET_2',
      'SHKMARKET_3',
      'SHKMARKET_4',
      'SHKMARKET_5',
      'SHKMARKET_6',
      'SHKMARKET_10',
    ]);
    const heating = root.children[1];
    expect(heating.descriptions[0].name).toBe('Heizung');
    expect(heating.type).toBe('node');
    const sum = (n: any): number =>
      n.type === 'leaf' ? n.productCount : n.children.reduce((s: number, c: any) => s + sum(c), 0);
    expect(heating.productCount).toBe(sum(heating));
    expect(root.children.slice(0, 6).reduce((s: number, c: any) => s + c.productCount, 0)).toBe(total);
    const leaf = heating.children[1].children[0];
    expect(leaf).toMatchObject({ type: 'leaf', parentID: 'SHKMARKET_2_2', children: [] });
    const [{ promo }] = await sql('SELECT count(*)::int AS promo FROM products WHERE is_promotion');
    expect(root.children[6]).toMatchObject({
      elementID: 'SHKMARKET_10',
      descriptions: [{ name: 'Aktion', language: 'de' }],
      productCount: promo,
    });
  });

  it('shows a seller its own catalogue as SHKMARKET_11; role None sees the tree (home page)', async () => {
    const res = await t.request('GET', '/v1/ProductTree', { as: 'verkauf@example.com' });
    const seller = res.body.children.find((c: any) => c.elementID === 'SHKMARKET_11');
    const [{ n }] = await sql(
      `SELECT count(DISTINCT product_no)::int AS n FROM product_offers WHERE supplier_bp_number = '200001'`,
    );
    expect(seller).toMatchObject({ descriptions: [{ name: 'Verkäuferkatalog', language: 'de' }], productCount: n });
    expect((await t.request('GET', '/v1/ProductTree', { as: 'gast@example.com' })).status).toBe(200);
    expect((await t.request('GET', '/v1/ProductTree')).status).toBe(401);
  });
});

describe('product and offers', () => {
  let offer: { product_instance_id: string; product_no: number; manufacturer_id: string; manufacturer_pid: string };
  beforeAll(async () => {
    [offer] =
      await sql(`SELECT o.product_instance_id, o.product_no, p.manufacturer_id, p.manufacturer_pid FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE o.supplier_bp_number = '200001' AND o.unit_code = 'C62' AND o.net_price IS NOT NULL
        AND (SELECT count(*) FROM product_offers x WHERE x.product_no = o.product_no) >= 3
        AND jsonb_array_length(p.media) >= 4 ORDER BY o.product_no LIMIT 1`);
  });

  it('GET /v1/Product returns every package of the spec', async () => {
    const res = await t.request('GET', `/v1/Product?productInstanceId=${q(offer.product_instance_id)}`, { as: buyer });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toMatchObject({
      productInstanceId: offer.product_instance_id,
      productId: `${offer.manufacturer_id}~${offer.manufacturer_pid}`,
      supplierBpNo: '200001',
      supplier: { bpNumber: '200001', name: 'Nordbad Großhandel', requiredOnboardingForm: false },
      productDataSource: 1,
      productOrderableStatus: 1,
      isFavorite: false,
    });
    expect(p.supplierPid).toBe(offer.product_instance_id.split('~')[1]);
    expect(p.basicPackage).toHaveProperty('productShortDescr', p.productName);
    expect(p.descriptionsPackage.productDescr).toContain(p.brandName);
    expect(p.logisticsPackage.measureA).toMatchObject({ unit: 'MMT' });
    expect(p.logisticsPackage.weight).toMatchObject({ unit: 'KGM' });
    expect(p.additionalPackage.minOrderQuantityValue).toBeGreaterThan(0);
    expect(p.pricesPackage.netPrice.value).toBeGreaterThan(0);
    expect(p.pricesPackage.netPrice.basis).toBeGreaterThan(0);
    expect(p.etimClass.id).toMatch(/^EC\d{6}$/);
    expect(p.features.length).toBeGreaterThanOrEqual(3);
    expect(p.features.length).toBeLessThanOrEqual(8);
    expect(p.categoryPath[0].elementID).toMatch(/^SHKMARKET_\d$/);
    expect(p.documentsPackage.some((d: any) => d.type === 'Datenblatt' && d.url.endsWith('.pdf'))).toBe(true);
    expect(p.picturesPackage.length).toBeGreaterThan(0);
    expect(p.gtin === null || /^\d{13}$/.test(p.gtin)).toBe(true);
  });

  it('resolves accessories and spare parts to products with name, picture and preferred offer', async () => {
    const [row] = await sql<{ product_instance_id: string; accessories: string[]; spare_parts: string[] }>(
      `SELECT o.product_instance_id, p.accessories, p.spare_parts FROM products p
         JOIN product_offers o ON o.product_no = p.id AND o.supplier_bp_number = '200001'
        WHERE cardinality(p.accessories) > 0 AND cardinality(o.accessories) = 0 ORDER BY p.id LIMIT 1`,
    );
    const res = await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, { as: buyer });
    expect(res.status).toBe(200);
    const related = res.body.additionalPackage.relatedProducts as any[];
    const accessories = related.filter((r) => r.kind === 'accessory');
    expect(accessories.map((r) => r.productId)).toEqual(row.accessories.filter((id) => id !== res.body.productId));
    for (const r of related) {
      const [product] = await sql<{ product_name: string; manufacturer_id: string; manufacturer_pid: string }>(
        'SELECT product_name, manufacturer_id, manufacturer_pid FROM products WHERE product_id = $1',
        [r.productId],
      );
      expect(r).toMatchObject({
        productName: product.product_name,
        manufacturerId: product.manufacturer_id,
        manufacturerPid: product.manufacturer_pid,
        price: { currency: 'EUR' },
      });
      expect(r.imageUrl).toMatch(/^\/v1\/|^http/);
      // The card opens the related product on its preferred offer.
      const opened = await t.request('GET', `/v1/Product?productInstanceId=${q(r.productInstanceId)}`, { as: buyer });
      expect(opened.status).toBe(200);
      expect(opened.body.productId).toBe(r.productId);
      expect(r.supplierName).toBe(opened.body.supplier.name);
    }
    expect(related.filter((r) => r.kind === 'sparePart').map((r) => r.productId)).toEqual(
      row.spare_parts.filter((id) => id !== res.body.productId),
    );
  });

  it('GET /v1/Product/Details lists the offers of all suppliers with orderability per relation', async () => {
    const res = await t.request('GET', `/v1/Product/Details?productInstanceId=${q(offer.product_instance_id)}`, {
      as: buyer,
    });
    expect(res.status).toBe(200);
    expect(res.body.offers.length).toBeGreaterThanOrEqual(3);
    const expected: Record<string, number> = { '200001': 1, '200003': 1, '200002': 4 };
    for (const o of res.body.offers) {
      expect(o).toHaveProperty('timeToDelivery');
      expect(o).toHaveProperty('minOrderQuantity');
      expect(o.productInstanceId).toBe(`${o.supplierId}~${o.pid}`);
      if (!o.hasUnitError) expect(o.productOrderableStatus).toBe(expected[o.supplierId] ?? 3);
      expect(o.dimensions).toHaveProperty('height');
    }
    expect(res.body.offers[0].productOrderableStatus).toBe(1);
  });

  it('flags unknown units, missing prices and price on demand', async () => {
    const [unit] = await sql(
      `SELECT product_instance_id FROM product_offers WHERE unit_code = 'H87' AND supplier_bp_number IN ('200001', '200003') ORDER BY 1 LIMIT 1`,
    );
    const details = await t.request('GET', `/v1/Product/Details?productInstanceId=${q(unit.product_instance_id)}`, {
      as: buyer,
    });
    const bad = details.body.offers.find((o: any) => o.productInstanceId === unit.product_instance_id);
    expect(bad).toMatchObject({ hasUnitError: true, productOrderableStatus: 5, unit: 'H87', unitDescription: null });
    const [missing] = await sql(
      `SELECT product_instance_id FROM product_offers WHERE net_price IS NULL AND NOT price_on_demand ORDER BY 1 LIMIT 1`,
    );
    const noPrice = (
      await t.request('GET', `/v1/Product?productInstanceId=${q(missing.product_instance_id)}`, { as: buyer })
    ).body;
    expect(noPrice.pricesPackage).toMatchObject({ hasConnectionError: true, netPrice: { value: null } });
    const [demand] = await sql(
      `SELECT product_instance_id FROM product_offers WHERE price_on_demand ORDER BY 1 LIMIT 1`,
    );
    const onDemand = (
      await t.request('GET', `/v1/Product?productInstanceId=${q(demand.product_instance_id)}`, { as: buyer })
    ).body;
    expect(onDemand.basicPackage.priceOnDemand).toBe(true);
    expect(onDemand.pricesPackage).toMatchObject({ hasConnectionError: false, netPrice: { value: null } });
  });

  it('orderability follows the current business partner', async () => {
    const [row] = await sql(
      `SELECT product_instance_id FROM product_offers WHERE supplier_bp_number = '200003' AND unit_code <> 'H87' ORDER BY 1 LIMIT 1`,
    );
    const mueller = await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, {
      as: buyer,
    });
    const becker = await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, {
      as: 'einkauf2@example.com',
    });
    const admin = await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, {
      as: 'admin@example.com',
    });
    expect(mueller.body.productOrderableStatus).toBe(1);
    expect(becker.body.productOrderableStatus).toBe(3);
    expect(admin.body.productOrderableStatus).toBe(3);
  });

  it('ByManufacturerData finds the product, keeps a given instance of it and ignores a foreign one', async () => {
    const base = `/v1/Product/ByManufacturerData?manufacturerId=${q(offer.manufacturer_id)}&manufacturerPid=${q(offer.manufacturer_pid)}`;
    const plain = await t.request('GET', base, { as: buyer });
    expect(plain.status).toBe(200);
    expect(plain.body.productId).toBe(`${offer.manufacturer_id}~${offer.manufacturer_pid}`);
    expect(plain.body.productOrderableStatus).toBe(1);
    const [other] = await sql(
      `SELECT product_instance_id FROM product_offers WHERE product_no = $1 AND product_instance_id <> $2 ORDER BY 1 LIMIT 1`,
      [offer.product_no, offer.product_instance_id],
    );
    const chosen = await t.request('GET', `${base}&productInstanceId=${q(other.product_instance_id)}`, { as: buyer });
    expect(chosen.body.productInstanceId).toBe(other.product_instance_id);
    const foreign = await t.request('GET', `${base}&productInstanceId=${q('200009~NICHTDA')}`, { as: buyer });
    expect(foreign.status).toBe(200);
    const missing = await t.request(
      'GET',
      `/v1/Product/ByManufacturerData?manufacturerId=${q(offer.manufacturer_id)}&manufacturerPid=GIBTESNICHT`,
      { as: buyer },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.title).toBe('Produkt nicht gefunden');
    expect(missing.body.detail).toBe('Artikelnummer GIBTESNICHT nicht gefunden.');
  });

  it('unknown product instance is 404, a malformed one 400, missing parameter 400, role None 403', async () => {
    const missing = await t.request('GET', `/v1/Product?productInstanceId=${q('200001~GIBTESNICHT')}`, { as: buyer });
    expect(missing.status).toBe(404);
    expect(missing.body.title).toBe('Produkt nicht gefunden');
    expect(
      (await t.request('GET', `/v1/Product/Details?productInstanceId=${q('200001~GIBTESNICHT')}`, { as: buyer }))
        .status,
    ).toBe(404);
    const malformed = await t.request('GET', '/v1/Product?productInstanceId=ohne-trenner', { as: buyer });
    expect(malformed.status).toBe(400);
    expect(malformed.body.title).toBe('Ungültige Produktinstanz-ID');
    expect((await t.request('GET', '/v1/Product', { as: buyer })).status).toBe(400);
    expect(
      (
        await t.request('GET', `/v1/Product?productInstanceId=${q(offer.product_instance_id)}`, {
          as: 'gast@example.com',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('GET', `/v1/Product?productInstanceId=${q(offer.product_instance_id)}`, {
          as: 'verkauf@example.com',
        })
      ).status,
    ).toBe(200);
  });
});

describe('media', () => {
  it('serves generated PNG pictures and PDF documents publicly, with the sizes the product lists', async () => {
    const [row] = await sql(`SELECT product_instance_id FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE p.media @> '[{"type": "2D"}]' AND p.media @> '[{"type": "picture"}]' ORDER BY 1 LIMIT 1`);
    const product = (
      await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, { as: buyer })
    ).body;
    const picture = product.picturesPackage[0];
    const res = await fetch(`${t.baseUrl}${picture.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBe(picture.size);
    for (const doc of product.documentsPackage.filter((d: any) => d.url.endsWith('.pdf'))) {
      const pdf = await fetch(`${t.baseUrl}${doc.url}`);
      const body = Buffer.from(await pdf.arrayBuffer());
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toContain(doc.filename);
      expect(body.subarray(0, 8).toString('latin1')).toMatch(/^%PDF-1\.\d$/);
      expect(body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
      expect(body.length).toBe(doc.size);
    }
    expect(product.documentsPackage.map((d: any) => d.type)).toContain('2D');
  });

  it('a renamed product lists and serves data sheets rendered from its new name, never a cached old one', async () => {
    const [row] = await sql(`SELECT o.product_instance_id, p.id, p.product_name FROM product_offers o
      JOIN products p ON p.id = o.product_no WHERE p.media @> '[{"type": "Datenblatt"}]' ORDER BY 1 DESC LIMIT 1`);
    const read = async () =>
      (await t.request('GET', `/v1/Product?productInstanceId=${q(row.product_instance_id)}`, { as: buyer })).body;
    const sheetOf = (product: any) => product.documentsPackage.find((d: any) => d.type === 'Datenblatt');
    const before = sheetOf(await read());
    const beforeBody = Buffer.from(await (await fetch(`${t.baseUrl}${before.url}`)).arrayBuffer());
    expect(beforeBody.length).toBe(before.size);
    await sql(`UPDATE products SET product_name = $2 WHERE id = $1`, [
      row.id,
      `${row.product_name} mit einer deutlich längeren Bezeichnung für das neue Datenblatt`,
    ]);
    const after = sheetOf(await read());
    const afterBody = Buffer.from(await (await fetch(`${t.baseUrl}${after.url}`)).arrayBuffer());
    expect(after.size).not.toBe(before.size);
    expect(afterBody.length).toBe(after.size);
  });

  it('unknown media is a 404 problem', async () => {
    const res = await t.request('GET', '/v1/Media/Products/1/gibtesnicht.png');
    expect(res.status).toBe(404);
    expect(res.body.title).toBe('Datei nicht gefunden');
    expect((await t.request('GET', '/v1/Media/Products/abc/x.png')).status).toBe(400);
  });
});
