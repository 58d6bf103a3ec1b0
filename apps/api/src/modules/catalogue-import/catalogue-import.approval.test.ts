/**
 * A full catalogue never empties an assortment by itself (it waits for approval when its withdrawal is implausible),
 * an applied import can be undone, and a bad optional field costs a product only that field (a warning).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

const ADMIN = 'admin@example.com';
const SELLER = 'verkauf@example.com'; // supplier 200001
const BUYER = 'einkauf@example.com'; // partner 100001, active relation to 200001

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;
const offersOf = async (supplier: string) =>
  (await sql('SELECT count(*)::int AS n FROM product_offers WHERE supplier_bp_number = $1', [supplier]))[0].n as number;

async function importText(supplier: string, text: string, fileName = 'katalog.xml', as = ADMIN) {
  const form = new FormData();
  form.append('file', new Blob([text]), fileName);
  const res = await t.request('POST', `/v1/Suppliers/${supplier}/CatalogueImports`, { as, body: form });
  expect(res.status, res.text).toBe(202);
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Suppliers/${supplier}/CatalogueImports/${res.body.id}`, { as });
    return ['Completed', 'Failed', 'AwaitingApproval'].includes(r.body.status) ? r.body : null;
  }, 30_000);
}

const decide = (supplier: string, id: number, action: 'Approve' | 'Discard' | 'Undo', as = ADMIN) =>
  t.request('POST', `/v1/Suppliers/${supplier}/CatalogueImports/${id}/${action}`, { as });

interface Product {
  pid?: string;
  name?: string | null;
  gtin?: string;
  unit?: string;
  etim?: string;
  price?: string;
}
function product(p: Product) {
  return `<PRODUCT mode="new">
      ${p.pid === undefined ? '' : `<SUPPLIER_PID>${p.pid}</SUPPLIER_PID>`}
      <PRODUCT_DETAILS>
        ${p.name ? `<DESCRIPTION_SHORT lang="deu">${p.name}</DESCRIPTION_SHORT>` : ''}
        ${p.gtin ? `<INTERNATIONAL_PID type="gtin">${p.gtin}</INTERNATIONAL_PID>` : ''}
        <MANUFACTURER_NAME>Prüfwerk Armaturen</MANUFACTURER_NAME>
      </PRODUCT_DETAILS>
      ${
        p.etim
          ? `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
             <REFERENCE_FEATURE_GROUP_ID>${p.etim}</REFERENCE_FEATURE_GROUP_ID></PRODUCT_FEATURES>`
          : ''
      }
      <PRODUCT_ORDER_DETAILS><ORDER_UNIT>${p.unit ?? 'C62'}</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY></PRODUCT_ORDER_DETAILS>
      <PRODUCT_PRICE_DETAILS>
        <PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${p.price ?? '12.50'}</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE>
      </PRODUCT_PRICE_DETAILS>
    </PRODUCT>`;
}
function bmecat(transaction: 'T_NEW_CATALOG' | 'T_UPDATE_PRODUCTS', products: Product[]) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">
  <HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>P</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
  <${transaction}>
    ${products.map(product).join('\n')}
  </${transaction}>
</BMECAT>`;
}

async function searchHits(term: string) {
  const r = await t.request('POST', '/v1/Product/Search', {
    as: BUYER,
    body: { searchTerm: term, page: 1, pageSize: 10 },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.hitCount as number;
}

describe('a full catalogue is checked before it withdraws anything', () => {
  it('5 products without DESCRIPTION_SHORT: nothing withdrawn, the import waits for approval with a preview', async () => {
    const before = await offersOf('200001');
    expect(before).toBeGreaterThan(10);
    const products = [1, 2, 3, 4, 5].map((n) => ({ pid: `KEIN-NAME-${n}`, name: null }));
    const result = await importText('200001', bmecat('T_NEW_CATALOG', products), 'katalog.xml', SELLER);
    expect(result.status).toBe('AwaitingApproval');
    expect(result.counts).toMatchObject({ read: 5, rejected: 5, deleted: 0, created: 0 });
    expect(result.preview).toMatchObject({ assortment: before, toWithdraw: before, withdrawPercent: 100 });
    expect(result.preview.reasons).toContain('Die Datei enthält keinen übernehmbaren Artikel.');
    expect(result.withdrawSample.length).toBeGreaterThan(0);
    expect(result.startedBy).toMatchObject({ id: expect.any(String) });
    expect(await offersOf('200001')).toBe(before);

    // Discarded: nothing withdrawn, the import says who discarded it.
    const discarded = await decide('200001', result.id, 'Discard', SELLER);
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.body.status).toBe('Discarded');
    expect(discarded.body.revertedBy).not.toBeNull();
    expect(await offersOf('200001')).toBe(before);
    expect((await decide('200001', result.id, 'Approve')).status).toBe(409);
  });

  it('products without SUPPLIER_PID, a header-only file and a DATANORM file of a V and one T record wait too', async () => {
    const before = await offersOf('200001');
    const noPid = await importText('200001', bmecat('T_NEW_CATALOG', [{ name: 'Ohne Nummer' }, { name: 'Auch ohne' }]));
    expect(noPid.status).toBe('AwaitingApproval');
    const headerOnly = await importText('200001', bmecat('T_NEW_CATALOG', []));
    expect(headerOnly).toMatchObject({ status: 'AwaitingApproval', counts: { read: 0, deleted: 0 } });
    const datanorm = await importText(
      '200001',
      'V;050;Prüfwerk;Artikeldaten;EUR\r\nT;N;TX1;1;Nur ein Text\r\n',
      'datanorm.001',
    );
    expect(datanorm).toMatchObject({
      status: 'AwaitingApproval',
      transaction: 'T_NEW_CATALOG',
      counts: { deleted: 0 },
    });
    const noText = await importText(
      '200001',
      'V;050;Prüfwerk;Artikeldaten;EUR\r\nA;N;DN-OHNE;00;;;2;0;Stck;1890;;;\r\n',
      'x.001',
    );
    expect(noText).toMatchObject({ status: 'AwaitingApproval', counts: { rejected: 1, deleted: 0 } });
    expect(await offersOf('200001')).toBe(before);
    // A waiting import that a newer one follows can no longer be approved.
    expect((await decide('200001', noPid.id, 'Approve')).status).toBe(409);
    // A newer import replaced the earlier waiting ones: nothing withdrawn, they can no longer be decided.
    for (const i of [noPid, headerOnly, datanorm]) {
      expect((await decide('200001', i.id, 'Discard')).status).toBe(409);
      const replaced = await t.request('GET', `/v1/Suppliers/200001/CatalogueImports/${i.id}`, { as: ADMIN });
      expect(replaced.body).toMatchObject({
        status: 'Discarded',
        error: expect.stringMatching(/^Durch einen neueren Import/),
      });
    }
    expect((await decide('200001', noText.id, 'Discard')).status).toBe(200);
  });

  it('one valid product for a large assortment waits; approved, it withdraws; undone, everything is back', async () => {
    const before = await offersOf('200001');
    const [demo] = await sql(
      `SELECT o.supplier_pid, p.product_name, p.id FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.supplier_bp_number = '200001' AND NOT EXISTS (SELECT 1 FROM product_offers x WHERE x.product_no = p.id AND x.supplier_bp_number <> '200001')
        ORDER BY o.supplier_pid LIMIT 1`,
    );
    expect(demo).toBeDefined();
    const searchRow = async () =>
      (await sql('SELECT count(*)::int AS n FROM product_search WHERE id = $1', [demo.id]))[0].n;
    expect(await searchRow()).toBe(1);

    const result = await importText(
      '200001',
      bmecat('T_NEW_CATALOG', [{ pid: 'EINZIG-1', name: 'Einzelstück Prüfventil' }]),
    );
    expect(result.status).toBe('AwaitingApproval');
    expect(result.counts).toMatchObject({ created: 1, deleted: 0 });
    expect(result.preview.toWithdraw).toBe(before);
    expect(result.preview.reasons[0]).toMatch(/würde 100 % des Sortiments zurückziehen \(Grenze 20 %\)/);
    expect(await offersOf('200001')).toBe(before + 1);

    // Another supplier's seller does not see it; a buyer may not decide.
    expect((await decide('200001', result.id, 'Approve', BUYER)).status).toBe(403);
    const approved = await decide('200001', result.id, 'Approve', SELLER);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'Completed', counts: { deleted: before } });
    expect(approved.body.approvedBy).toMatchObject({ id: expect.any(String) });
    expect(approved.body.undoableUntil).not.toBeNull();
    expect(await offersOf('200001')).toBe(1);
    expect(await searchRow()).toBe(0);

    const list = await t.request('GET', '/v1/Suppliers/200001/CatalogueImports', { as: SELLER });
    expect(list.body.find((i: { id: number }) => i.id === result.id)).toMatchObject({
      startedBy: { id: expect.any(String) },
      approvedBy: { id: expect.any(String) },
    });

    const undone = await decide('200001', result.id, 'Undo', SELLER);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.status).toBe('RolledBack');
    expect(await offersOf('200001')).toBe(before);
    expect(await searchRow()).toBe(1);
    expect(
      (await sql(`SELECT count(*)::int AS n FROM product_offers WHERE product_instance_id = '200001~EINZIG-1'`))[0].n,
    ).toBe(0);
    expect(await eventually(async () => (await searchHits(demo.product_name)) > 0)).toBe(true);
    expect((await decide('200001', result.id, 'Undo')).status).toBe(409);
  });

  it('undo gives changed offers and products their former values, search rows too', async () => {
    const [demo] = await sql(
      `SELECT o.supplier_pid, o.net_price, p.product_name, p.id FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.supplier_bp_number = '200001' AND o.net_price IS NOT NULL ORDER BY o.supplier_pid LIMIT 1`,
    );
    const result = await importText(
      '200001',
      bmecat('T_UPDATE_PRODUCTS', [
        { pid: demo.supplier_pid, name: 'Zwischenzeitlich Umbenannter Quastenflosser', price: '999.99' },
      ]),
    );
    expect(result).toMatchObject({ status: 'Completed', counts: { updated: 1 } });
    expect(await eventually(async () => (await searchHits('Quastenflosser')) > 0)).toBe(true);

    const undone = await decide('200001', result.id, 'Undo');
    expect(undone.status, undone.text).toBe(200);
    const [after] = await sql(
      `SELECT o.net_price, p.product_name FROM product_offers o JOIN products p ON p.id = o.product_no
        WHERE o.product_instance_id = $1`,
      [`200001~${demo.supplier_pid}`],
    );
    expect(after).toMatchObject({ net_price: demo.net_price, product_name: demo.product_name });
    expect(await eventually(async () => (await searchHits('Quastenflosser')) === 0)).toBe(true);
  });

  it('undo: only within 30 days, only the latest import, not for another supplier’s seller', async () => {
    const first = await importText('200003', bmecat('T_UPDATE_PRODUCTS', [{ pid: 'UNDO-1', name: 'Erstes Ventil' }]));
    const second = await importText('200003', bmecat('T_UPDATE_PRODUCTS', [{ pid: 'UNDO-2', name: 'Zweites Ventil' }]));
    expect(first.undoableUntil).not.toBeNull();
    // A later import of the supplier: the earlier one can no longer be undone.
    const again = await t.request('GET', `/v1/Suppliers/200003/CatalogueImports/${first.id}`, { as: ADMIN });
    expect(again.body.undoableUntil).toBeNull();
    expect((await decide('200003', first.id, 'Undo')).body.title).toBe(
      'Nach diesem Import wurde bereits ein neuerer Import des Lieferanten gestartet.',
    );
    // The seller of another supplier does not see it.
    expect((await decide('200003', second.id, 'Undo', SELLER)).status).toBe(404);
    await sql(`UPDATE catalogue_imports SET finished_at = now() - interval '31 days' WHERE id = $1`, [second.id]);
    const expired = await decide('200003', second.id, 'Undo');
    expect(expired.status).toBe(409);
    expect(expired.body.title).toBe('Ein Import kann nur bis 30 Tage nach seinem Ende rückgängig gemacht werden.');
    expect(
      (await sql(`SELECT count(*)::int AS n FROM product_offers WHERE product_instance_id = '200003~UNDO-2'`))[0].n,
    ).toBe(1);
  });

  it('within the supplier’s limits (staff can change them) a full catalogue withdraws at once', async () => {
    expect((await t.request('GET', '/v1/Suppliers/200002/CatalogueImportSettings', { as: ADMIN })).body).toEqual({
      maxWithdrawPercent: 20,
      maxRejectPercent: 5,
      mediaFallbackBaseUrl: null,
      mediaAccessTokenSet: false,
    });
    const asSeller = await t.request('PUT', '/v1/Suppliers/200001/CatalogueImportSettings', {
      as: SELLER,
      body: { maxWithdrawPercent: 100, maxRejectPercent: 100 },
    });
    expect(asSeller.status).toBe(403);
    const bad = await t.request('PUT', '/v1/Suppliers/200002/CatalogueImportSettings', {
      as: ADMIN,
      body: { maxWithdrawPercent: 101, maxRejectPercent: 5 },
    });
    expect(bad.status).toBe(400);
    const saved = await t.request('PUT', '/v1/Suppliers/200002/CatalogueImportSettings', {
      as: ADMIN,
      body: { maxWithdrawPercent: 100, maxRejectPercent: 5 },
    });
    expect(saved.status, saved.text).toBe(200);
    const before = await offersOf('200002');
    expect(before).toBeGreaterThan(0);
    const result = await importText('200002', bmecat('T_NEW_CATALOG', [{ pid: 'NEU-2', name: 'Neues Ventil' }]));
    expect(result).toMatchObject({ status: 'Completed', counts: { created: 1, deleted: before } });
    expect(result.approvedBy).toBeNull();
  });
});

describe('bad fields do not cost products', () => {
  it('a wrong GTIN check digit, an unknown unit, an invalid ETIM class and an over-long name are warnings', async () => {
    const longName = `Langer Name ${'x'.repeat(400)}`;
    const result = await importText(
      '200003',
      bmecat('T_UPDATE_PRODUCTS', [
        { pid: 'W-GTIN', name: 'Ventil mit falscher GTIN', gtin: '4006501234590' },
        { pid: 'W-UNIT', name: 'Ventil mit Fantasieeinheit', unit: 'KRUG' },
        { pid: 'W-ETIM', name: 'Ventil mit falscher Klasse', etim: 'XYZ-1' },
        { pid: 'W-LONG', name: longName },
        { pid: '', name: 'Ohne Nummer' },
      ]),
    );
    expect(result.status).toBe('Completed');
    expect(result.counts).toMatchObject({ read: 5, created: 4, rejected: 1, warnings: 4 });
    expect(result.rejections).toEqual([
      { position: 5, productId: null, reason: 'Die Artikelnummer des Lieferanten (SUPPLIER_PID) fehlt.' },
    ]);
    expect(result.warnings).toEqual([
      {
        position: 1,
        productId: 'W-GTIN',
        reason: 'Die GTIN „4006501234590“ hat eine ungültige Prüfziffer. Der Artikel wurde ohne GTIN übernommen.',
      },
      {
        position: 2,
        productId: 'W-UNIT',
        reason: 'Die Bestelleinheit „KRUG“ ist unbekannt. Der Artikel wurde mit der Einheit Stück (C62) übernommen.',
      },
      { position: 3, productId: 'W-ETIM', reason: expect.stringContaining('„XYZ-1“ ist keine gültige ETIM-Klasse') },
      {
        position: 4,
        productId: 'W-LONG',
        reason: 'Die Kurzbeschreibung ist länger als 300 Zeichen und wurde gekürzt.',
      },
    ]);
    const rows = await sql(
      `SELECT o.supplier_pid, p.gtin, o.unit_code, p.class_no, length(p.product_name) AS len FROM product_offers o
         JOIN products p ON p.id = o.product_no WHERE o.supplier_bp_number = '200003' AND o.supplier_pid LIKE 'W-%'
        ORDER BY o.supplier_pid`,
    );
    expect(rows).toEqual([
      { supplier_pid: 'W-ETIM', gtin: null, unit_code: 'C62', class_no: null, len: 26 },
      { supplier_pid: 'W-GTIN', gtin: null, unit_code: 'C62', class_no: null, len: 24 },
      { supplier_pid: 'W-LONG', gtin: null, unit_code: 'C62', class_no: null, len: 300 },
      { supplier_pid: 'W-UNIT', gtin: null, unit_code: 'C62', class_no: null, len: 26 },
    ]);

    const warnings = await t.request('GET', `/v1/Suppliers/200003/CatalogueImports/${result.id}/Warnings.csv`, {
      as: ADMIN,
    });
    expect(warnings.status).toBe(200);
    expect(warnings.headers.get('content-type')).toContain('text/csv');
    expect(warnings.headers.get('content-disposition')).toContain('Warnungen.csv');
    const lines = warnings.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Position;Artikelnummer;Hinweis');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^1;W-GTIN;/);
    const rejections = await t.request('GET', `/v1/Suppliers/200003/CatalogueImports/${result.id}/Rejections.csv`, {
      as: ADMIN,
    });
    expect(
      rejections.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toEqual(['Position;Artikelnummer;Grund', '5;;Die Artikelnummer des Lieferanten (SUPPLIER_PID) fehlt.']);
    expect(
      (await t.request('GET', `/v1/Suppliers/200003/CatalogueImports/${result.id}/Warnings.csv`, { as: SELLER }))
        .status,
    ).toBe(404);
  });

  it('DATANORM: an EAN with a wrong check digit is a warning, the article is imported', async () => {
    const result = await importText(
      '200003',
      [
        'V;050;Prüfwerk;Artikeldaten;EUR',
        'A;A;DN-EAN;00;Ventil mit falscher EAN;;2;0;Stck;1890;;;',
        'B;A;DN-EAN;VENTIL; ; ;0;0;4006501234590; ;; ;1;;Prüfwerk;',
      ].join('\r\n'),
      'x.001',
    );
    expect(result).toMatchObject({ status: 'Completed', counts: { created: 1, rejected: 0, warnings: 1 } });
    expect(result.warnings[0].reason).toMatch(/ungültige Prüfziffer\. Der Artikel wurde ohne GTIN übernommen\./);
  });
});
