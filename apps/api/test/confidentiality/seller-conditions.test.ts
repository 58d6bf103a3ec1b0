import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueProblemTitles, SearchColumn } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { addPriceList } from '../support/media-fixtures.ts';

/**
 * A marketplace: a seller sees the other suppliers' products, but never their prices, conditions or delivery times;
 * only the seller's own offers show them. The API withholds them, not just the page (docs/security.md).
 */
let t: TestApp;
const SELLER = 'verkauf@example.com'; // Nordbad, 200001
const BUYER = 'einkauf@example.com';
const ADMIN = 'admin@example.com';
const OWN = '200001';
const COMPETITOR = '200002'; // Wärmekontor

interface Shared {
  productNo: number;
  manufacturerId: string;
  manufacturerPid: string;
  own: string;
  competitor: string;
}
/** A product both Nordbad and Wärmekontor offer, Wärmekontor's with a delivery time. */
let shared: Shared;
/** An offer of a product that only Wärmekontor offers. */
let competitorOnly: { manufacturerPid: string; instance: string };

beforeAll(async () => {
  t = await startTestApp();
  const rows = await t.pool.query<Shared>(
    `SELECT p.id AS "productNo", p.manufacturer_id AS "manufacturerId", p.manufacturer_pid AS "manufacturerPid",
            n.product_instance_id AS own, w.product_instance_id AS competitor
       FROM products p
       JOIN product_offers n ON n.product_no = p.id AND n.supplier_bp_number = $1
       JOIN product_offers w ON w.product_no = p.id AND w.supplier_bp_number = $2
      WHERE w.time_to_delivery_days IS NOT NULL AND NOT w.price_on_demand
      ORDER BY p.id LIMIT 1`,
    [OWN, COMPETITOR],
  );
  shared = rows.rows[0];
  expect(shared, 'the demo catalogue has a product of both suppliers').toBeTruthy();
  const only = await t.pool.query<{ manufacturerPid: string; instance: string }>(
    `SELECT p.manufacturer_pid AS "manufacturerPid", w.product_instance_id AS instance
       FROM products p JOIN product_offers w ON w.product_no = p.id AND w.supplier_bp_number = $1
      WHERE NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = p.id AND o.supplier_bp_number <> $1)
        AND NOT w.price_on_demand
      ORDER BY p.id LIMIT 1`,
    [COMPETITOR],
  );
  competitorOnly = only.rows[0];
  expect(competitorOnly).toBeTruthy();
});
afterAll(async () => {
  await t?.close();
});

const details = (as: string, instance: string) =>
  t.request('GET', `/v1/Product/Details?productInstanceId=${encodeURIComponent(instance)}`, { as });
const product = (as: string, instance: string) =>
  t.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent(instance)}`, { as });
const search = (as: string, body: Record<string, unknown>) =>
  t.request('POST', '/v1/Product/Search', { as, body: { page: 1, pageSize: 25, ...body } });
const offerOf = (body: any, supplier: string) => body.offers.find((o: any) => o.supplierId === supplier);

describe("a seller and a competitor's offer", () => {
  it('product page offers: own offer with price and delivery time, the competitor without any condition', async () => {
    const buyerView = offerOf((await details(BUYER, shared.competitor)).body, COMPETITOR);
    // What a buyer sees (and the seller must not): a price and a delivery time.
    expect(buyerView.pricePerPiece).not.toBeNull();
    expect(buyerView.timeToDelivery).not.toBeNull();

    const res = await details(SELLER, shared.competitor);
    expect(res.status).toBe(200);
    const competitor = offerOf(res.body, COMPETITOR);
    expect(competitor).toMatchObject({
      conditionsHidden: true,
      pricePerPiece: null,
      priceBasis: null,
      grossListPrice: null,
      priceOnDemand: false,
      hasConnectionError: false,
      minOrderQuantity: null,
      minOrderQuantityUnit: null,
      timeToDelivery: null,
    });
    // The competitor's product is still visible: name, article number, supplier.
    expect(competitor.pid).toBe(buyerView.pid);
    expect(competitor.name).toBe(buyerView.name);
    const own = offerOf(res.body, OWN);
    expect(own.conditionsHidden).toBe(false);
    expect(own.pricePerPiece).not.toBeNull();
    // Own offer first: the order of the offers says nothing about the competitors' prices.
    expect(res.body.offers[0].supplierId).toBe(OWN);
  });

  it("product entity of the competitor's offer (by instance and by manufacturer data) carries no prices", async () => {
    const buyerView = (await product(BUYER, shared.competitor)).body;
    expect(buyerView.pricesPackage.netPrice.value).not.toBeNull();
    const urls = [
      `/v1/Product?productInstanceId=${encodeURIComponent(shared.competitor)}`,
      `/v1/Product/ByManufacturerData?manufacturerId=${encodeURIComponent(shared.manufacturerId)}&manufacturerPid=${encodeURIComponent(shared.manufacturerPid)}&productInstanceId=${encodeURIComponent(shared.competitor)}`,
    ];
    for (const url of urls) {
      const res = await t.request('GET', url, { as: SELLER });
      expect(res.status, url).toBe(200);
      expect(res.body.productInstanceId).toBe(shared.competitor);
      expect(res.body.conditionsHidden, url).toBe(true);
      expect(res.body.pricesPackage, url).toBeNull();
      expect(res.body.basicPackage.priceOnDemand).toBe(false);
      expect(res.body.additionalPackage.minOrderQuantityValue).toBeNull();
      expect(res.body.logisticsPackage.standardDeliveryPeriod).toBeNull();
      for (const related of res.body.additionalPackage.relatedProducts) {
        if (related.productInstanceId.startsWith(`${OWN}~`)) continue;
        expect(related.price, related.productInstanceId).toBeNull();
      }
    }
    // The own offer of the same product shows its price.
    const own = await product(SELLER, shared.own);
    expect(own.body.conditionsHidden).toBe(false);
    expect(own.body.pricesPackage.netPrice.value).not.toBeNull();
  });

  it('search hits: the own offer represents a shared product with its price; a competitor-only product has none', async () => {
    const res = await search(SELLER, { searchTerm: shared.manufacturerPid, useNumberSearch: true });
    expect(res.status).toBe(200);
    const hit = res.body.hits.find((h: any) => h.rows.manufacturerPID === shared.manufacturerPid);
    expect(hit.rows.supplierID).toBe(OWN);
    expect(hit.conditionsHidden).toBe(false);
    expect(hit.price.value).not.toBeNull();

    const other = await search(SELLER, { searchTerm: competitorOnly.manufacturerPid, useNumberSearch: true });
    const competitorHit = other.body.hits.find((h: any) => h.rows.PRODUCTINSTANCE_ID === competitorOnly.instance);
    expect(competitorHit, 'the competitor-only product is still found').toBeTruthy();
    expect(competitorHit).toMatchObject({ conditionsHidden: true, price: null, minOrderQuantity: null });
    // A buyer sees its price.
    const buyer = await search(BUYER, { searchTerm: competitorOnly.manufacturerPid, useNumberSearch: true });
    const buyerHit = buyer.body.hits.find((h: any) => h.rows.PRODUCTINSTANCE_ID === competitorOnly.instance);
    expect(buyerHit.price.value).not.toBeNull();
  });

  it('no price slider and no price filter for a seller (the range would tell competitors’ prices)', async () => {
    const res = await search(SELLER, { searchTerm: 'Thermostat' });
    expect(res.status).toBe(200);
    expect(res.body.filterOption.map((o: any) => o.columnName)).not.toContain(SearchColumn.price);
    const buyer = await search(BUYER, { searchTerm: 'Thermostat' });
    expect(buyer.body.filterOption.map((o: any) => o.columnName)).toContain(SearchColumn.price);

    const priceFilter = {
      columnName: SearchColumn.price,
      filterType: 'Regler',
      sliderValues: { minValue: 41, maxValue: 42 },
    };
    const filtered = await search(SELLER, { searchTerm: 'Thermostat', filter: [priceFilter] });
    expect(filtered.status).toBe(400);
    expect(filtered.body.title).toBe(catalogueProblemTitles.priceFilterNotForSellers);
    const slider = await t.request('POST', '/v1/Product/FilterOptions', {
      as: SELLER,
      body: { filterName: SearchColumn.price, searchTerm: 'Thermostat' },
    });
    expect(slider.status).toBe(400);
    const buyerFiltered = await search(BUYER, { searchTerm: 'Thermostat', filter: [priceFilter] });
    expect(buyerFiltered.status).toBe(200);
  });

  it("no other way to a competitor's prices: its catalogue imports (the price files) are not the seller's", async () => {
    for (const url of [
      `/v1/Suppliers/${COMPETITOR}/CatalogueImports`,
      `/v1/Suppliers/${COMPETITOR}/CatalogueImports/1`,
    ]) {
      expect((await t.request('GET', url, { as: SELLER })).status, url).toBe(404);
    }
    expect((await t.request('GET', `/v1/Suppliers/${OWN}/CatalogueImports`, { as: SELLER })).status).toBe(200);
  });

  it("staff keep seeing the catalogue's prices (decision in docs/security.md)", async () => {
    const res = await details(ADMIN, shared.competitor);
    const competitor = offerOf(res.body, COMPETITOR);
    expect(competitor.conditionsHidden).toBe(false);
    expect(competitor.pricePerPiece).not.toBeNull();
  });
});

describe('product documents: which kinds are public', () => {
  it('pictures and technical documents are public; a price list needs sign-in and is no competitor’s business', async () => {
    const own = await addPriceList(t, OWN);
    const competitor = await addPriceList(t, COMPETITOR);
    const publicUrl = (m: { productNo: number; file: string }) => `/v1/Media/Products/${m.productNo}/${m.file}`;
    const signedInUrl = (m: { productNo: number; file: string }) => `/v1/Documents/Products/${m.productNo}/${m.file}`;

    // Not through the public media route, with or without a token: its existence is not told either.
    for (const m of [own, competitor]) {
      expect((await t.request('GET', publicUrl(m))).status).toBe(404);
      expect((await t.request('GET', publicUrl(m), { as: BUYER })).status).toBe(404);
      expect((await t.request('GET', signedInUrl(m))).status).toBe(401);
    }
    // Signed in: a buyer and staff get it; the seller its own, not the competitor's.
    const bought = await t.request('GET', signedInUrl(competitor), { as: BUYER });
    expect(bought.status).toBe(200);
    expect(bought.headers.get('content-type')).toBe('application/pdf');
    expect(bought.headers.get('cache-control')).toMatch(/^private/);
    expect((await t.request('GET', signedInUrl(competitor), { as: ADMIN })).status).toBe(200);
    expect((await t.request('GET', signedInUrl(own), { as: SELLER })).status).toBe(200);
    expect((await t.request('GET', signedInUrl(competitor), { as: SELLER })).status).toBe(404);

    // The product page names it with the signed-in URL; a seller's page does not name a competitor's price list.
    const instanceOf = async (m: { productNo: number }, supplier: string) =>
      (
        await t.pool.query<{ id: string }>(
          'SELECT product_instance_id AS id FROM product_offers WHERE product_no = $1 AND supplier_bp_number = $2',
          [m.productNo, supplier],
        )
      ).rows[0].id;
    const docsOf = async (as: string, m: { productNo: number }, supplier: string) =>
      (await product(as, await instanceOf(m, supplier))).body.documentsPackage as any[];
    expect((await docsOf(BUYER, competitor, COMPETITOR)).find((d) => d.filename === competitor.file)).toMatchObject({
      type: 'Preisliste',
      url: signedInUrl(competitor),
      requiresSignIn: true,
    });
    expect((await docsOf(SELLER, competitor, COMPETITOR)).map((d) => d.filename)).not.toContain(competitor.file);
    expect((await docsOf(SELLER, own, OWN)).map((d) => d.filename)).toContain(own.file);

    // Pictures and technical documents stay public (no token).
    const docs = await docsOf(BUYER, own, OWN);
    const picture = (await product(BUYER, await instanceOf(own, OWN))).body.picturesPackage[0];
    expect((await t.request('GET', picture.url)).status).toBe(200);
    for (const d of docs.filter((d) => !d.requiresSignIn)) {
      expect(['Datenblatt', 'Montageanleitung', '2D', '3C']).toContain(d.type);
      expect((await t.request('GET', d.url)).status, d.url).toBe(200);
    }
  });
});
