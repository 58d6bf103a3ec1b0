/**
 * Supplier media in a zip next to the XML, successors, future price blocks and the names of ETIM
 * codes from the file's classification dictionary. Fixtures: zip-catalogue.zip (built
 * from fixtures/zip-catalogue/ with `zip -X -r`; katalog.xml in ISO-8859-1) and
 * update-prices-future-latin1.xml.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertImport } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';
import { partnerStorageUsed } from '../../lib/uploads/storage-quota.ts';
import { promoteDuePrices } from './future-prices.repo.ts';
import { recordAndDropForeignKeys, restoreImportConstraints } from './import-run.repo.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // These tests are about what an applied full catalogue does (withdrawing demo offers included): every supplier may
  // withdraw and reject everything here. The check before a withdrawal has its own tests (catalogue-import.approval.test.ts).
  await t.pool.query(
    'INSERT INTO catalogue_import_settings (supplier_bp_number, max_withdraw_percent, max_reject_percent) SELECT bp_number, 100, 100 FROM suppliers',
  );
});
afterAll(async () => {
  await t?.close();
});

async function importFile(supplier: string, fixture: string) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(path.join(fixtures, fixture))]), fixture);
  const res = await t.request('POST', `/v1/Suppliers/${supplier}/CatalogueImports`, { as: ADMIN, body: form });
  expect(res.status, res.text).toBe(202);
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Suppliers/${supplier}/CatalogueImports/${res.body.id}`, { as: ADMIN });
    return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
  }, 30_000);
}

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

/** The product page as a buyer sees it, once the API's catalogue caches have the import. */
async function product(instance: string, ready: (p: any) => boolean = () => true) {
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent(instance)}`, { as: BUYER });
    return r.status === 200 && ready(r.body) ? r.body : null;
  }, 10_000);
}

describe('a zip with the XML and its media', () => {
  let imported: any;
  beforeAll(async () => {
    imported = await importFile('200001', 'zip-catalogue.zip');
  });

  it('imports the products and lists the refused medium as a warning, not as a rejected product', () => {
    // A warning of the media fetcher on the URL medium may come in after the import; not this test's concern.
    const fetcherWarnings = imported.warnings.filter((w: any) => w.reason.startsWith('Das Medium „'));
    expect(imported).toMatchObject({
      status: 'Completed',
      transaction: 'T_UPDATE_PRODUCTS',
      counts: { read: 2, created: 2, rejected: 0 },
    });
    expect(imported.counts.warnings).toBe(1 + fetcherWarnings.length);
    expect(imported.rejections).toEqual([]);
    expect(imported.warnings.filter((w: any) => !w.reason.startsWith('Das Medium „'))).toEqual([
      {
        position: 1,
        productId: 'WM-5001',
        reason: 'Der Inhalt der Mediendatei „bilder/falsch.jpg“ passt nicht zu ihrer Endung.',
      },
    ]);
  });

  it('stores the media under DATA_DIR once per content and serves them by the product media route', async () => {
    const p = await product('200001~WM-5001');
    expect(p.productName).toBe('Wärmlinger Umwälzpumpe Größe 25-60 (Auslauf)');
    const picture = p.picturesPackage.find((m: any) => m.filename === 'pumpe.png');
    const png = fs.readFileSync(path.join(fixtures, 'zip-catalogue/bilder/pumpe.png'));
    expect(picture).toMatchObject({ description: 'Ansicht von vorn', size: png.length });
    const res = await fetch(`${t.baseUrl}${picture.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const docs = Object.fromEntries(p.documentsPackage.map((d: any) => [d.filename, d]));
    expect(docs['datenblatt.pdf']).toMatchObject({ type: 'Datenblatt', description: 'Datenblatt Größe 25-60' });
    const pdf = await fetch(`${t.baseUrl}${docs['datenblatt.pdf'].url}`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer()).equals(
        fs.readFileSync(path.join(fixtures, 'zip-catalogue/doku/datenblatt.pdf')),
      ),
    ).toBe(true);
    const step = await fetch(`${t.baseUrl}${docs['pumpe.stp'].url}`);
    expect(docs['pumpe.stp'].type).toBe('3C');
    expect(step.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await step.text()).toMatch(/^ISO-10303-21;/);

    // A URL is fetched by the media fetcher (this host does not resolve): until stored it is not served, and never
    // redirected to.
    expect(docs['25-60.pdf']).toMatchObject({ type: 'Montageanleitung', size: 0 });
    const manual = await fetch(`${t.baseUrl}${docs['25-60.pdf'].url}`, { redirect: 'manual' });
    expect(manual.status).toBe(404);
    expect(manual.headers.get('location')).toBeNull();
    // The refused file is not served (nor replaced by a generated picture).
    const refused = p.picturesPackage.find((m: any) => m.filename === 'falsch.jpg');
    expect((await fetch(`${t.baseUrl}${refused.url}`)).status).toBe(404);

    // The picture both products show is stored once and counts towards the supplier's storage.
    const files = await sql(
      `SELECT sha256, content_type, size_bytes::int AS size FROM catalogue_media_files WHERE supplier_bp_number = '200001' ORDER BY content_type`,
    );
    expect(files.map((f) => f.content_type)).toEqual(['application/pdf', 'image/png', 'model/step']);
    for (const f of files)
      expect(fs.statSync(path.join(t.config.dataDir, 'catalogue-media', '200001', f.sha256)).size).toBe(f.size);
    const other = await product('200001~WM-5002');
    expect(other.picturesPackage[0].size).toBe(png.length);
  });

  it('does not store media beyond the supplier’s storage quota: the product comes without them', async () => {
    const zip = path.join(t.config.dataDir, 'quota.zip');
    fs.copyFileSync(path.join(fixtures, 'zip-catalogue.zip'), zip);
    const id = await insertImport(t.pool, { supplier: '200002', fileName: 'quota.zip', filePath: zip, userId: null });
    const used = await partnerStorageUsed(t.pool, '200002');
    await runImport(t.pool, id, { dataDir: t.config.dataDir, mediaQuotaBytes: used + 100 });
    const [row] = await sql(`SELECT status FROM catalogue_imports WHERE id = $1`, [id]);
    expect(row.status).toBe('Completed');
    const notes = await sql(`SELECT reason FROM catalogue_import_warnings WHERE import_id = $1 ORDER BY position`, [
      id,
    ]);
    expect(notes[0].reason).toMatch(
      /^Die Mediendatei „doku\/datenblatt.pdf“ wurde nicht gespeichert: das Speicherkontingent/,
    );
    // Stored catalogue media count towards the supplier's storage (hardening quota).
    expect(await partnerStorageUsed(t.pool, '200002')).toBe(used + 74);
    const stored = await sql(
      `SELECT count(*)::int AS n FROM catalogue_media_files WHERE supplier_bp_number = '200002'`,
    );
    // The 74-byte picture fits into 100 bytes; the data sheet does not.
    expect(stored[0].n).toBe(1);
  });

  it('keeps the successor (followup) and shows it as a related product', async () => {
    const [row] = await sql(
      `SELECT p.successors FROM products p JOIN product_offers o ON o.product_no = p.id WHERE o.product_instance_id = '200001~WM-5001'`,
    );
    expect(row.successors).toEqual([expect.stringMatching(/~WL-25-60-E$/)]);
    const p = await product('200001~WM-5001');
    expect(p.additionalPackage.successors).toEqual(row.successors);
    expect(p.additionalPackage.relatedProducts).toEqual([
      expect.objectContaining({
        kind: 'successor',
        productInstanceId: '200001~WM-5002',
        productName: 'Wärmlinger Hocheffizienz-Umwälzpumpe Größe 25-60 E',
      }),
    ]);
  });

  it('names ETIM codes new to the catalogue as the file’s classification system does, else by the code', async () => {
    // The catalogue's names are cached per catalogue version, checked at most every 2 s (docs/catalogue-import.md):
    // the quota test's import just before may still be within that window.
    await expect
      .poll(async () => (await product('200001~WM-5001')).etimClass, { timeout: 10_000, interval: 250 })
      .toEqual({ id: 'EC987001', description: 'Umwälzpumpe für Heizungsanlagen' });
    const p = await product('200001~WM-5001');
    expect(p.features).toEqual([
      expect.objectContaining({ featureId: 'EF987001', description: 'Förderhöhe max.', kind: 'N', value: 6 }),
      // The German name of the value wins over the English one listed first.
      expect.objectContaining({ featureId: 'EF987002', description: 'Gehäusewerkstoff', value: 'Grauguß' }),
      // Not in the file's dictionary: the code is the name.
      expect.objectContaining({ featureId: 'EF987003', description: 'EF987003', value: 'EV987099' }),
    ]);
  });
});

describe('future price blocks', () => {
  const todayPrice = async (instance: string) => (await product(instance)).pricesPackage.netPrice.value;

  it('keep today’s price and are stored with their validity', async () => {
    const [offer] = await sql(
      `SELECT net_price, price_valid_from::text FROM product_offers WHERE product_instance_id = '200001~WM-5001'`,
    );
    expect(offer).toEqual({ net_price: 100, price_valid_from: '2020-01-01' });
    expect(
      await sql(
        `SELECT valid_from::text, net_price, price_scales FROM catalogue_offer_prices WHERE product_instance_id = '200001~WM-5001'`,
      ),
    ).toEqual([{ valid_from: '2099-01-01', net_price: 120, price_scales: [{ from: 10, price: 115 }] }]);
    expect(await todayPrice('200001~WM-5001')).toBe(100);
  });

  it('a price update with only a later block leaves today’s price; the file’s blocks replace the stored ones', async () => {
    const result = await importFile('200001', 'update-prices-future-latin1.xml');
    expect(result).toMatchObject({ status: 'Completed', counts: { read: 2, updated: 2, rejected: 0 } });
    const offers = await sql(
      `SELECT product_instance_id, net_price FROM product_offers WHERE product_instance_id LIKE '200001~WM-500%' ORDER BY 1`,
    );
    expect(offers).toEqual([
      { product_instance_id: '200001~WM-5001', net_price: 100 },
      { product_instance_id: '200001~WM-5002', net_price: 145 },
    ]);
    expect(
      await sql(
        `SELECT product_instance_id, valid_from::text, valid_to::text, net_price FROM catalogue_offer_prices
          WHERE product_instance_id LIKE '200001~WM-500%' ORDER BY 1, 2`,
      ),
    ).toEqual([
      { product_instance_id: '200001~WM-5001', valid_from: '2098-06-01', valid_to: null, net_price: 110 },
      { product_instance_id: '200001~WM-5002', valid_from: '2099-03-01', valid_to: '2099-12-31', net_price: 159 },
    ]);
    expect(await todayPrice('200001~WM-5001')).toBe(100);
    // The same file again changes nothing.
    expect((await importFile('200001', 'update-prices-future-latin1.xml')).counts).toMatchObject({
      updated: 0,
      unchanged: 2,
    });
  });

  it('from its first day (Europe/Berlin) the block is the price product pages and carts read', async () => {
    // The day comes: the block starts today in Berlin (as if the calendar had moved on).
    await t.pool.query(
      `UPDATE catalogue_offer_prices SET valid_from = (now() AT TIME ZONE 'Europe/Berlin')::date
        WHERE product_instance_id = '200001~WM-5001'`,
    );
    expect(await todayPrice('200001~WM-5001')).toBe(110);
    const cartId = (await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Preise' } })).body.id;
    const preview = await t.request('POST', `/v1/MultiCarts/${cartId}/QuickOrder`, {
      as: BUYER,
      body: { text: 'WM-5001;1', confirm: false },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.lines[0]).toMatchObject({
      status: 'Added',
      productInstanceId: '200001~WM-5001',
      candidates: [expect.objectContaining({ unitPrice: 110 })],
    });
    // An ended block no longer applies: the offer's price is read again.
    await t.pool.query(
      `UPDATE catalogue_offer_prices SET valid_from = DATE '2000-01-01', valid_to = DATE '2000-12-31'
        WHERE product_instance_id = '200001~WM-5001'`,
    );
    expect(await todayPrice('200001~WM-5001')).toBe(100);
  });
});

describe('the daily promotion of future prices', () => {
  it('moves a block whose day has come into the offer and the search index’s lowest price', async () => {
    await t.pool.query(
      `UPDATE catalogue_offer_prices SET valid_from = (now() AT TIME ZONE 'Europe/Berlin')::date
        WHERE product_instance_id = '200001~WM-5002'`,
    );
    // The quota test's supplier offers the same product: dearer, so the promoted price is the lowest.
    await t.pool.query(`UPDATE product_offers SET net_price = 300 WHERE product_instance_id = '200002~WM-5002'`);
    const version = (await sql('SELECT version FROM catalogue_state'))[0].version;
    expect(await promoteDuePrices(t.pool)).toBe(1);
    const [offer] = await sql(
      `SELECT o.net_price, o.price_valid_to::text, s.price_cents FROM product_offers o JOIN product_search_prices s ON s.id = o.product_no
        WHERE o.product_instance_id = '200001~WM-5002'`,
    );
    expect(offer).toEqual({ net_price: 159, price_valid_to: '2099-12-31', price_cents: 15900 });
    // Due and ended blocks are gone; the later ones of other offers stay.
    expect(
      await sql(
        `SELECT product_instance_id FROM catalogue_offer_prices WHERE product_instance_id LIKE '200001~WM-500%'`,
      ),
    ).toEqual([]);
    expect((await sql('SELECT version FROM catalogue_state'))[0].version).toBeGreaterThan(version);
    expect(await promoteDuePrices(t.pool)).toBe(0);
  });
});

describe('indexes dropped for a first large catalogue', () => {
  it('are built again by the next import when an import crashed without rebuilding them', async () => {
    const [definition] = await sql(`SELECT indexdef FROM pg_indexes WHERE indexname = 'products_gtin_idx'`);
    // As a crashed first large catalogue leaves them: recorded, then dropped.
    await t.pool.query('CREATE TABLE IF NOT EXISTS catalogue_load_indexes (indexdef text PRIMARY KEY)');
    await t.pool.query('INSERT INTO catalogue_load_indexes VALUES ($1)', [definition.indexdef]);
    await t.pool.query('DROP INDEX products_gtin_idx');
    expect(await importFile('200001', 'update-prices-future-latin1.xml')).toMatchObject({ status: 'Completed' });
    expect(await sql(`SELECT indexdef FROM pg_indexes WHERE indexname = 'products_gtin_idx'`)).toEqual([definition]);
    expect(await sql('SELECT * FROM catalogue_load_indexes')).toEqual([]);
  });
});

describe('cart totals while an import runs', () => {
  const bmecat = (transaction: string, products: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>FR</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<${transaction}>${products}`;
  const product = (pid: string, price: string, details = '') =>
    `<PRODUCT mode="update"><SUPPLIER_PID>${pid}</SUPPLIER_PID>${details}
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${price}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;
  const write = (name: string, text: string) => {
    const file = path.join(t.config.dataDir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const overviewTotal = async (cartId: number) => {
    const res = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
    expect(res.status).toBe(200);
    return res.body.find((c: { id: number }) => c.id === cartId).totalNetValue;
  };

  it('follow the prices of every merged batch, not only those of a finished import', async () => {
    const details = `<PRODUCT_DETAILS><DESCRIPTION_SHORT>Frischeprüfung Kugelhahn</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>`;
    const catalogue = write(
      'fresh-products.xml',
      bmecat('T_UPDATE_PRODUCTS', product('FR-1', '10.00', details) + '</T_UPDATE_PRODUCTS></BMECAT>'),
    );
    const first = await insertImport(t.pool, {
      supplier: '200001',
      fileName: 'p.xml',
      filePath: catalogue,
      userId: null,
    });
    expect(await runImport(t.pool, first)).toMatchObject({ created: 1, rejected: 0 });

    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Frische' } });
    expect(cart.status).toBe(201);
    await t.pool.query(
      `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
       VALUES ($1, '200001~FR-1', '200001', 'FR-1', 3)`,
      [cart.body.id],
    );
    // Computed and stored with the catalogue version of now.
    expect(await overviewTotal(cart.body.id)).toBe(30);

    // A price update whose first batch (one article) is merged and committed before the file turns out broken: the
    // import fails, the merged price stays, and the cart must price it although the import never finished.
    const prices = write(
      'fresh-prices.xml',
      bmecat('T_UPDATE_PRICES', product('FR-1', '12.50') + '<PRODUCT mode="update"><SUPPLIER_PID>FR-2</SUPPLIER'),
    );
    const second = await insertImport(t.pool, {
      supplier: '200001',
      fileName: 'q.xml',
      filePath: prices,
      userId: null,
    });
    await runImport(t.pool, second, { batchSize: 1 });
    expect((await sql('SELECT status FROM catalogue_imports WHERE id = $1', [second]))[0].status).toBe('Failed');
    expect(
      (await sql(`SELECT net_price FROM product_offers WHERE product_instance_id = '200001~FR-1'`))[0].net_price,
    ).toBe(12.5);
    expect(await overviewTotal(cart.body.id)).toBe(37.5);
  });
});

describe('foreign keys dropped for a first large catalogue', () => {
  it('are added and validated again by the next import when an import crashed without restoring them', async () => {
    const key = async () =>
      sql(
        `SELECT conname, convalidated, pg_get_constraintdef(oid) AS definition FROM pg_constraint
          WHERE conname = 'products_brand_no_fkey'`,
      );
    const [before] = await key();
    expect(before).toMatchObject({
      convalidated: true,
      definition: 'FOREIGN KEY (brand_no) REFERENCES brands(brand_no)',
    });
    // As a crashed first large catalogue leaves it: recorded, then dropped.
    await t.pool.query(
      `INSERT INTO catalogue_import_constraints (name, table_name, definition) VALUES ('products_brand_no_fkey', 'products', $1)`,
      [before.definition],
    );
    await t.pool.query('ALTER TABLE products DROP CONSTRAINT products_brand_no_fkey');
    expect(await importFile('200001', 'update-prices-future-latin1.xml')).toMatchObject({ status: 'Completed' });
    expect(await key()).toEqual([before]);
    expect(await sql('SELECT * FROM catalogue_import_constraints')).toEqual([]);
    // Checked again: a product of an unknown brand is refused.
    await expect(
      t.pool.query(`UPDATE products SET brand_no = -1 WHERE id = (SELECT min(id) FROM products)`),
    ).rejects.toThrow(/products_brand_no_fkey/);
  });

  it('are validated in two sessions at once at the end of a first large catalogue, all of them, and then forgotten', async () => {
    const keys = async () =>
      sql(
        `SELECT k.conname, t.relname, k.convalidated, pg_get_constraintdef(k.oid) AS definition FROM pg_constraint k
           JOIN pg_class t ON t.oid = k.conrelid
          WHERE k.contype = 'f' AND t.relname = ANY($1) ORDER BY k.conname`,
        [['products', 'product_offers', 'product_search', 'product_search_prices']],
      );
    const before = await keys();
    expect(before.length).toBeGreaterThanOrEqual(8);
    const c = await t.pool.connect();
    const beside = await t.pool.connect();
    try {
      await c.query('BEGIN');
      await recordAndDropForeignKeys(c, ['products', 'product_offers', 'product_search', 'product_search_prices']);
      await c.query('COMMIT');
      expect(await keys()).toEqual([]);
      await restoreImportConstraints(c, beside);
    } finally {
      c.release();
      beside.release();
    }
    expect(await keys()).toEqual(before);
    expect(await sql('SELECT * FROM catalogue_import_constraints')).toEqual([]);
  });
});

describe('a supplier’s first catalogue', () => {
  it('inserts its offers without the upsert and still takes the last of an article number repeated in a later batch', async () => {
    // A supplier without offers (the demo catalogue gave 200005 some).
    const supplier = { bp_number: '200005' };
    await t.pool.query(`DELETE FROM product_offers WHERE supplier_bp_number = '200005'`);
    const article = (pid: string, price: string) =>
      `<PRODUCT mode="update"><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Erstkatalog ${pid}</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${price}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`;
    const file = path.join(t.config.dataDir, 'first-catalogue.xml');
    fs.writeFileSync(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>EK</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${article('EK-1', '10.00')}${article('EK-2', '20.00')}${article('EK-1', '30.00')}</T_UPDATE_PRODUCTS></BMECAT>`,
    );
    const id = await insertImport(t.pool, {
      supplier: supplier.bp_number,
      fileName: 'e.xml',
      filePath: file,
      userId: null,
    });
    // One article per batch: the repeated EK-1 comes two batches after the first.
    expect(await runImport(t.pool, id, { batchSize: 1 })).toMatchObject({
      read: 3,
      created: 2,
      updated: 1,
      rejected: 0,
    });
    expect(
      await sql(
        `SELECT supplier_pid, net_price FROM product_offers WHERE supplier_bp_number = $1 ORDER BY supplier_pid`,
        [supplier.bp_number],
      ),
    ).toEqual([
      { supplier_pid: 'EK-1', net_price: 30 },
      { supplier_pid: 'EK-2', net_price: 20 },
    ]);
  });
});
