import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { catalogueIntegrationOf } from './integration-info.ts';
import { insertImport } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const ADMIN = 'admin@example.com';
const SELLER = 'verkauf@example.com'; // supplier 200001
const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001

let t: TestApp;
beforeAll(async () => {
  // The media fetcher polls only at start here: the fixtures name pictures on hosts nobody answers for, and a failed
  // download is counted among its import's warnings whenever it happens (media-url.test.ts covers the fetcher).
  t = await startTestApp({ env: { MEDIA_FETCH_POLL_MS: String(3_600_000) } });
  // These tests are about what an applied full catalogue does (withdrawing demo offers included): every supplier may
  // withdraw and reject everything here. The check before a withdrawal has its own tests (catalogue-import.approval.test.ts).
  await t.pool.query(
    'INSERT INTO catalogue_import_settings (supplier_bp_number, max_withdraw_percent, max_reject_percent) SELECT bp_number, 100, 100 FROM suppliers',
  );
});
afterAll(async () => {
  await t?.close();
});

async function upload(supplier: string, fixture: string, as = ADMIN) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(path.join(fixtures, fixture))]), fixture);
  return t.request('POST', `/v1/Suppliers/${supplier}/CatalogueImports`, { as, body: form });
}

async function importFile(supplier: string, fixture: string, as = ADMIN) {
  const res = await upload(supplier, fixture, as);
  expect(res.status).toBe(202);
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Suppliers/${supplier}/CatalogueImports/${res.body.id}`, { as });
    return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
  }, 30_000);
}

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

async function search(term: string) {
  return eventually(async () => {
    const r = await t.request('POST', '/v1/Product/Search', {
      as: BUYER,
      body: { searchTerm: term, page: 1, pageSize: 10 },
    });
    return r.body.hitCount > 0 ? r.body : null;
  }, 10_000);
}

describe('rights', () => {
  it('lets administrators and the supplier’s seller import; another seller gets 404, a buyer 403', async () => {
    expect((await upload('200002', 'new-catalog.xml', SELLER)).status).toBe(404);
    expect((await t.request('GET', '/v1/Suppliers/200002/CatalogueImports', { as: SELLER })).status).toBe(404);
    expect((await upload('200001', 'new-catalog.xml', BUYER)).status).toBe(403);
    expect((await t.request('GET', '/v1/Suppliers/200001/CatalogueImports', { as: BUYER })).status).toBe(403);
    expect((await upload('999999', 'new-catalog.xml')).status).toBe(404);
    const empty = await t.request('POST', '/v1/Suppliers/200001/CatalogueImports', { as: ADMIN, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toMatch(/Katalogdatei/);
  });

  it('stores the file name cleaned: a NUL, bidi characters and path parts are no 500', async () => {
    const form = new FormData();
    form.append('file', new Blob(['kein Katalog']), '../../tmp/kata\u0000log\u202Etxt.xml');
    const res = await t.request('POST', '/v1/Suppliers/200002/CatalogueImports', { as: ADMIN, body: form });
    expect(res.status, res.text).toBe(202);
    const done = await eventually(async () => {
      const r = await t.request('GET', `/v1/Suppliers/200002/CatalogueImports/${res.body.id}`, { as: ADMIN });
      return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
    }, 30_000);
    expect(done.status).toBe('Failed');
    expect((await sql('SELECT file_name FROM catalogue_imports WHERE id = $1', [res.body.id]))[0].file_name).toBe(
      'katalogtxt.xml',
    );
  });
});

describe('BMEcat 2005', () => {
  let orderNumber: string;

  it('imports a full catalogue: ETIM features with units, staggered prices, references, broken products rejected alone', async () => {
    const demoOffers = (
      await sql(`SELECT count(*)::int AS n FROM product_offers WHERE supplier_bp_number = '200001'`)
    )[0].n;
    const result = await importFile('200001', 'new-catalog.xml', SELLER);
    expect(result).toMatchObject({
      status: 'Completed',
      format: 'BMEcat 2005',
      transaction: 'T_NEW_CATALOG',
      counts: { read: 5, created: 3, updated: 0, unchanged: 0, rejected: 2, deleted: demoOffers, warnings: 0 },
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.rejections).toEqual([
      { position: 4, productId: 'QX-BROKEN-1', reason: 'Die Kurzbeschreibung (DESCRIPTION_SHORT) fehlt.' },
      // Its wrong GTIN alone would cost it only the GTIN (a warning); an unreadable price rejects it.
      { position: 5, productId: 'QX-BROKEN-2', reason: 'Der Preis „abc“ ist keine gültige Zahl.' },
    ]);
    expect(result.warnings).toEqual([]);

    const [p] = await sql(
      `SELECT p.*, c.class_id, o.net_price, o.gross_list_price, o.price_scales, o.quantity_interval, o.min_order_quantity,
              o.price_valid_from::text, o.price_valid_to::text, t.name AS leaf
         FROM product_offers o JOIN products p ON p.id = o.product_no LEFT JOIN etim_classes c ON c.class_no = p.class_no
         JOIN product_tree t ON t.node_no = p.leaf_no
        WHERE o.product_instance_id = '200001~QX-1001'`,
    );
    expect(p).toMatchObject({
      product_name: 'Quixbrück Spültischarmatur Größe M chrom',
      gtin: '4006501234568',
      manufacturer_pid: 'QB-77001',
      class_id: 'EC011234',
      net_price: 189.5,
      gross_list_price: 319,
      price_scales: [
        { from: 10, price: 179 },
        { from: 50, price: 169 },
      ],
      price_valid_from: '2026-01-01',
      price_valid_to: '2026-12-31',
      accessories: [expect.stringMatching(/~QB-77002$/)],
    });
    // ETIM: numeric feature with its unit, an alphanumeric value and a logical value, in class slot order.
    const features = await sql(
      `SELECT f.feature_id, f.kind, f.unit_code, cf.slot FROM etim_class_features cf JOIN etim_features f USING (feature_no)
        JOIN etim_classes c USING (class_no) WHERE c.class_id = 'EC011234' ORDER BY cf.slot`,
    );
    expect(features).toEqual([
      { feature_id: 'EF990001', kind: 'N', unit_code: 'MMT', slot: 1 },
      { feature_id: 'EF990002', kind: 'A', unit_code: null, slot: 2 },
      { feature_id: 'EF990003', kind: 'A', unit_code: null, slot: 3 },
    ]);
    expect(p.feature_values[0]).toBe(220);
    expect(p.media.map((m: { type: string }) => m.type)).toEqual(['picture', 'Datenblatt']);
    const [hose] = await sql(
      `SELECT p.spare_parts, o.min_order_quantity, o.quantity_interval FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.product_instance_id = '200001~QX-1002'`,
    );
    expect(hose).toMatchObject({
      spare_parts: [expect.stringMatching(/~QB-77003$/)],
      min_order_quantity: 2,
      quantity_interval: 2,
    });

    // Integration info follows the import.
    const info = await catalogueIntegrationOf(t.pool, '200001');
    expect(info).toMatchObject({
      integrationStatus: 1,
      importRunning: false,
      lastImport: { id: result.id, status: 'Completed' },
    });
  });

  it('makes the new products searchable by GTIN without a restart', async () => {
    const found = await search('4006501234568');
    expect(found.hits[0].rows).toMatchObject({ PRODUCTINSTANCE_ID: '200001~QX-1001', gtin: '4006501234568' });
    const byWord = await search('Quixbrück Spültischarmatur');
    expect(byWord.hits.map((h: any) => h.rows.PRODUCTINSTANCE_ID)).toContain('200001~QX-1001');
  });

  it('changes nothing when the same file is imported again', async () => {
    const version = (await sql('SELECT version FROM catalogue_state'))[0].version;
    const again = await importFile('200001', 'new-catalog.xml');
    expect(again.counts).toEqual({
      read: 5,
      created: 0,
      updated: 0,
      unchanged: 3,
      deleted: 0,
      rejected: 2,
      warnings: 0,
    });
    expect((await sql('SELECT version FROM catalogue_state'))[0].version).toBe(version);
    expect((await sql(`SELECT count(*)::int AS n FROM product_offers WHERE supplier_bp_number = '200001'`))[0].n).toBe(
      3,
    );
  });

  it('updates products from an ISO-8859-1 file, withdraws a deleted one and keeps it in past orders', async () => {
    const cart = (await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Import-Test' } })).body;
    expect(
      (
        await t.request('POST', '/v1/CartItems', {
          as: BUYER,
          body: { cartId: cart.id, productInstanceId: '200001~QX-1003', quantity: 2 },
        })
      ).status,
    ).toBe(201);
    const order = await t.request('POST', `/v1/MultiCarts/${cart.id}/checkout`, { as: BUYER });
    expect(order.status).toBe(200);
    orderNumber = order.body.customerOrderNumber;

    const result = await importFile('200001', 'update-products-latin1.xml');
    expect(result).toMatchObject({
      status: 'Completed',
      transaction: 'T_UPDATE_PRODUCTS',
      counts: { read: 3, created: 1, updated: 1, unchanged: 0, deleted: 1, rejected: 0 },
    });
    const [hose] = await sql(
      `SELECT p.product_name, o.net_price FROM product_offers o JOIN products p ON p.id = o.product_no WHERE o.product_instance_id = '200001~QX-1002'`,
    );
    expect(hose).toEqual({ product_name: 'Quixbrück Brauseschlauch Edelstahl 2000 mm (verlängert)', net_price: 26.9 });
    expect(await sql(`SELECT 1 FROM product_offers WHERE product_instance_id = '200001~QX-1003'`)).toEqual([]);
    expect(
      await sql(
        `SELECT offer->>'supplier_pid' AS pid FROM catalogue_withdrawn_offers WHERE product_instance_id = '200001~QX-1003'`,
      ),
    ).toEqual([{ pid: 'QX-1003' }]);
    expect(await sql(`SELECT 1 FROM products WHERE manufacturer_pid = 'QB-77003'`)).toHaveLength(1);

    const details = (await t.request('GET', `/v1/CustomerOrders/${orderNumber}/Details`, { as: BUYER })).body;
    const line = details.supplierOrdersDetails[0].lines[0];
    expect(line).toMatchObject({
      articleNumber: 'QX-1003',
      name: 'Quixbrück Dichtungssatz für Spültischarmatur',
      quantity: 2,
    });
  });

  it('updates prices (T_UPDATE_PRICES) and rejects unknown articles', async () => {
    const result = await importFile('200001', 'update-prices.xml');
    expect(result).toMatchObject({
      status: 'Completed',
      transaction: 'T_UPDATE_PRICES',
      counts: { read: 2, updated: 1, rejected: 1 },
      rejections: [
        {
          position: 2,
          productId: 'QX-UNKNOWN',
          reason: 'Der Artikel QX-UNKNOWN ist im Katalog des Lieferanten nicht vorhanden.',
        },
      ],
    });
    const [offer] = await sql(
      `SELECT net_price, price_scales FROM product_offers WHERE product_instance_id = '200001~QX-1001'`,
    );
    expect(offer).toEqual({ net_price: 199, price_scales: [{ from: 20, price: 185 }] });
  });

  it('fails a malformed file with a German message and keeps the catalogue', async () => {
    const broken = path.join(t.config.dataDir, 'broken.xml');
    fs.writeFileSync(
      broken,
      fs
        .readFileSync(path.join(fixtures, 'new-catalog.xml'), 'utf8')
        .replace('</PRODUCT_DETAILS>', '</PRODUCT_DETAIL>'),
    );
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(broken)]), 'broken.xml');
    const res = await t.request('POST', '/v1/Suppliers/200001/CatalogueImports', { as: ADMIN, body: form });
    const result = await eventually(async () => {
      const r = await t.request('GET', `/v1/Suppliers/200001/CatalogueImports/${res.body.id}`, { as: ADMIN });
      return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
    }, 30_000);
    expect(result.status).toBe('Failed');
    expect(result.error).toMatch(/XML-Datei ist fehlerhaft \(Zeile \d+\)/);
    expect(await sql(`SELECT 1 FROM product_offers WHERE product_instance_id = '200001~QX-1001'`)).toHaveLength(1);
    const list = (await t.request('GET', '/v1/Suppliers/200001/CatalogueImports', { as: SELLER })).body;
    expect(list[0]).toMatchObject({ id: res.body.id, status: 'Failed', fileName: 'broken.xml' });
  });
});

describe('DATANORM', () => {
  it('imports DATANORM 4 (code page 850) with texts, article groups and a broken record', async () => {
    const result = await importFile('200002', 'datanorm4.001');
    expect(result).toMatchObject({
      status: 'Completed',
      format: 'DATANORM 4',
      counts: { read: 3, created: 2, rejected: 1 },
    });
    expect(result.rejections[0]).toMatchObject({ productId: 'DN-4713' });
    const [rohr] = await sql(
      `SELECT p.product_name, p.product_descr, p.gtin, p.manufacturer_pid, m.name AS manufacturer, o.net_price, o.unit_code
         FROM product_offers o JOIN products p ON p.id = o.product_no JOIN manufacturers m USING (manufacturer_id)
        WHERE o.product_instance_id = '200002~DN-4711'`,
    );
    expect(rohr).toEqual({
      product_name: 'Kupferrohr 15 x 1 mm Stange 5 m, weich',
      product_descr: 'Nahtlos gezogenes Kupferrohr nach DIN EN 1057.',
      gtin: '4006501234612',
      manufacturer_pid: 'KR-15-1',
      manufacturer: 'Kupferwerk Süd',
      net_price: 12.34,
      unit_code: 'MTR',
    });
    const [fitting] =
      await sql(`SELECT p.product_name, o.net_price, o.price_basis FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE o.product_instance_id = '200002~DN-4712'`);
    expect(fitting).toEqual({ product_name: 'Pressfitting Übergangsstück 22 mm', net_price: 456, price_basis: 10 });
    expect(
      await sql(`SELECT group_id, name FROM supplier_catalogue_groups WHERE supplier_bp_number = '200002' ORDER BY 1`),
    ).toEqual([
      { group_id: 'KU', name: 'Kupferrohre' },
      { group_id: 'PF', name: 'Pressfittings' },
    ]);
  });

  it('imports DATANORM 5 (ISO-8859-1) with a separate price record', async () => {
    const result = await importFile('200003', 'datanorm5.txt');
    expect(result).toMatchObject({
      status: 'Completed',
      format: 'DATANORM 5',
      counts: { read: 1, created: 1, rejected: 0 },
    });
    const [v] =
      await sql(`SELECT p.product_name, o.net_price FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE o.product_instance_id = '200003~DN-5001'`);
    expect(v).toEqual({ product_name: 'Heizkörperventil Eckform DN 15 thermostatisch', net_price: 17.5 });
  });
});

describe('jobs', () => {
  it('runs again after a crash without duplicates, and a second import of the supplier waits for the first', async () => {
    const file = path.join(fixtures, 'new-catalog.xml');
    const newImport = async () =>
      insertImport(t.pool, { supplier: '200004', fileName: 'new-catalog.xml', filePath: file, userId: null });
    const first = await newImport();
    const second = await newImport();
    await Promise.all([runImport(t.pool, first), runImport(t.pool, second)]);
    const [a, b] = await sql(
      `SELECT id, status, started_at, finished_at, created_count, unchanged_count FROM catalogue_imports WHERE id = ANY($1) ORDER BY started_at`,
      [[first, second]],
    );
    expect([a.status, b.status]).toEqual(['Completed', 'Completed']);
    expect(b.started_at.getTime()).toBeGreaterThanOrEqual(a.finished_at.getTime());
    expect([a.created_count, b.unchanged_count]).toEqual([3, 3]);

    // A crash after the writes but before the import was marked done: the job is delivered again and resumes after
    // the last committed batch (here: the whole file) with the counts it had (the offers it withdrew included, when it
    // ran first); nothing is withdrawn a second time.
    const [before] = await sql(
      `SELECT created_count, unchanged_count, deleted_count FROM catalogue_imports WHERE id = $1`,
      [second],
    );
    const withdrawn = `SELECT count(*)::int AS n FROM catalogue_withdrawn_offers WHERE supplier_bp_number = '200004'`;
    const [withdrawnBefore] = await sql(withdrawn);
    await sql(`UPDATE catalogue_imports SET status = 'InProgress', finished_at = NULL WHERE id = $1`, [second]);
    const again = await runImport(t.pool, second);
    expect(again).toMatchObject({
      read: 5,
      created: before.created_count,
      unchanged: before.unchanged_count,
      deleted: before.deleted_count,
      rejected: 2,
    });
    expect(await sql(withdrawn)).toEqual([withdrawnBefore]);
    expect(
      await sql(
        `SELECT supplier_pid, count(*)::int AS n FROM product_offers WHERE supplier_bp_number = '200004' GROUP BY 1 ORDER BY 1`,
      ),
    ).toEqual([
      { supplier_pid: 'QX-1001', n: 1 },
      { supplier_pid: 'QX-1002', n: 1 },
      { supplier_pid: 'QX-1003', n: 1 },
    ]);
    expect((await sql(`SELECT count(*)::int AS n FROM products WHERE manufacturer_pid = 'QB-77001'`))[0].n).toBe(1);
    expect(fs.existsSync(file)).toBe(true);
  });

  it('writes a product again whose search row was lost in a crash instead of taking it as unchanged', async () => {
    // Search rows are staged (UNLOGGED) and published when the import ends; a crash loses them,
    // while the products and offers of earlier batches were committed with their hashes.
    const id = await insertImport(t.pool, {
      supplier: '200004',
      fileName: 'new-catalog.xml',
      filePath: path.join(fixtures, 'new-catalog.xml'),
      userId: null,
    });
    await sql(
      `DELETE FROM product_search WHERE id = (SELECT product_no FROM product_offers WHERE product_instance_id = '200004~QX-1002')`,
    );
    const counts = await runImport(t.pool, id);
    expect(counts).toMatchObject({ read: 5, created: 0, updated: 1, unchanged: 2, rejected: 2 });
    const [row] = await sql(
      `SELECT s.name_rank, sp.price_cents, s.vec::text AS vec FROM product_search s
         JOIN product_search_prices sp ON sp.id = s.id
         JOIN product_offers o ON o.product_no = s.id WHERE o.product_instance_id = '200004~QX-1002'`,
    );
    expect(row.name_rank).toBeGreaterThan(0);
    expect(row.vec).toContain('brauseschlauch');
    expect(await sql('SELECT 1 FROM catalogue_import_search WHERE import_id = $1', [id])).toEqual([]);
  });
});
