/**
 * Two API nodes on one database, each with a DATA_DIR of its own, STORAGE_BACKEND=postgres: what is uploaded
 * through one node downloads unchanged through the other. Node A runs no workers; node B runs the catalogue import
 * and report workers, so B's worker must find the catalogue upload A received (it failed with ENOENT when the upload
 * sat on A's disk), the media B stored are served by A, and the report file B wrote is downloaded through A. A cart
 * item attachment, the order line attachment checkout made of one, a supplier logo and onboarding form template and an
 * order document uploaded through A download byte for byte through B; files stored in rows before the file storage
 * are still served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from '../support/test-app.ts';
import { fileForm, pdfBytes, pngBytes } from '../support/supplier-fixtures.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { fileStorage } from '../../src/modules/storage/index.ts';
import { insertImport } from '../../src/modules/catalogue-import/catalogue-import.repo.ts';
import { storageRef } from '../../src/modules/catalogue-import/import-pipeline.ts';
import { ImportSweeper } from '../../src/modules/catalogue-import/catalogue-import.service.ts';
import { CartItemsService } from '../../src/modules/carts/cart-items.service.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/modules/catalogue-import/fixtures');
const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com';
const SELLER = 'verkauf@example.com'; // supplier 200001

let a: TestApp;
let b: Awaited<ReturnType<typeof startSecondRuntime>>;
beforeAll(async () => {
  a = await startTestApp({
    env: { STORAGE_BACKEND: 'postgres', CATALOGUE_IMPORT_WORKER: 'off', REPORT_WORKER: 'off' },
  });
  b = await startSecondRuntime(a, {
    ownDataDir: true,
    config: {
      catalogueImport: { ...a.config.catalogueImport, worker: true },
      reports: { ...a.config.reports, worker: true },
    },
  });
  await insertTestOffers(a.pool);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** A GET through node B with a token A's sign-in issued. */
async function viaB(url: string, as?: string) {
  const headers: Record<string, string> = as ? { authorization: `Bearer ${await a.token(as)}` } : {};
  return fetch(`${b.baseUrl}${url}`, { headers });
}
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('STORAGE_BACKEND=postgres on two nodes', () => {
  it("runs a catalogue import uploaded through A on B's worker, and both nodes serve its media", async () => {
    const zip = fs.readFileSync(path.join(fixtures, 'zip-catalogue.zip'));
    const upload = await a.request('POST', '/v1/Suppliers/200001/CatalogueImports', {
      as: ADMIN,
      body: fileForm(zip, 'zip-catalogue.zip', 'application/zip'),
    });
    expect(upload.status, upload.text).toBe(202);
    // The upload is in the database, not on A's disk.
    expect(fs.existsSync(path.join(a.config.dataDir, 'catalogue-imports'))).toBe(false);
    const done = await eventually(async () => {
      const r = await a.request('GET', `/v1/Suppliers/200001/CatalogueImports/${upload.body.id}`, { as: ADMIN });
      return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
    }, 60_000);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'Completed', counts: { created: 2 } });

    const product = await eventually(async () => {
      const r = await a.request('GET', `/v1/Product?productInstanceId=${encodeURIComponent('200001~WM-5001')}`, {
        as: BUYER,
      });
      return r.status === 200 && r.body.picturesPackage?.length ? r.body : null;
    }, 15_000);
    const picture = product.picturesPackage.find((m: { filename: string }) => m.filename === 'pumpe.png');
    const png = fs.readFileSync(path.join(fixtures, 'zip-catalogue/bilder/pumpe.png'));
    for (const node of [a.baseUrl, b.baseUrl]) {
      const res = await fetch(`${node}${picture.url}`);
      expect(res.status).toBe(200);
      expect((await bytesOf(res)).equals(png)).toBe(true);
    }
    // Neither node keeps media in its DATA_DIR; the ended import's upload is gone from the storage.
    for (const dir of [a.config.dataDir, (b as unknown as { config?: { dataDir: string } }).config?.dataDir])
      if (dir) expect(fs.existsSync(path.join(dir, 'catalogue-media'))).toBe(false);
    const { rows } = await a.pool.query(`SELECT key FROM stored_files WHERE key LIKE 'catalogue-imports/%'`);
    expect(rows).toEqual([]);
  }, 120_000);

  it('serves a report written by B through A', async () => {
    const generated = await a.request('POST', '/v1/Reports/Generate', {
      as: ADMIN,
      body: { reportType: 1, startDate: '2025-01-01', endDate: '2025-01-31', format: 'csv' },
    });
    expect(generated.status, generated.text).toBe(202);
    await eventually(async () => {
      const list = await a.request('GET', '/v1/Reports?Page=1&PageSize=25', { as: ADMIN });
      const r = list.body.items.find((i: { id: number }) => i.id === generated.body.id);
      return r && r.reportGenerationStatusId >= 3 ? r : null;
    }, 60_000);
    const viaA = await a.request('GET', `/v1/Reports/Download/${generated.body.id}`, { as: ADMIN });
    expect(viaA.status).toBe(200);
    expect(viaA.text).toMatch(/^Lieferantenbestellung;/);
    const fromB = await viaB(`/v1/Reports/Download/${generated.body.id}`, ADMIN);
    expect(fromB.status).toBe(200);
    expect(await fromB.text()).toBe(viaA.text);
  }, 90_000);

  it('downloads a cart item attachment and a logo uploaded through A through B; a replaced logo is deleted', async () => {
    const cart = await a.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Zwei Knoten' } });
    expect(cart.status, cart.text).toBe(201);
    const cartId = cart.body.id;
    const item = await a.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId, productInstanceId: offers.nordbad, quantity: 1 },
    });
    expect(item.status, item.text).toBeLessThan(300);
    const content = Buffer.from('Position;Menge\r\n1;5\r\n');
    const attached = await a.request('POST', `/v1/CartItems/${item.body.cartItemId}/attachments`, {
      as: BUYER,
      body: fileForm(content, 'angebot.csv', 'text/csv'),
    });
    expect(attached.status, attached.text).toBe(200);
    const attachment = attached.body[attached.body.length - 1];
    const download = await viaB(`/v1/CartItems/${item.body.cartItemId}/attachments/${attachment.id}`, BUYER);
    expect(download.status).toBe(200);
    expect((await bytesOf(download)).equals(content)).toBe(true);

    const logo = await pngBytes();
    const put = await a.request('POST', '/v1/Suppliers/200003/logo', {
      as: ADMIN,
      body: fileForm(logo, 'logo.png', 'image/png'),
    });
    expect(put.status, put.text).toBeLessThan(300);
    const shown = await viaB('/v1/Suppliers/200003/logo');
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^image\//);
    const original = await viaB('/v1/Suppliers/200003/logo?original=true');
    expect(original.status).toBe(200);
    expect((await bytesOf(original)).equals(logo)).toBe(true);
    const { rows } = await a.pool.query(
      `SELECT logo IS NULL AS in_storage, logo_storage_key, logo_size_bytes FROM suppliers WHERE bp_number = '200003'`,
    );
    expect(rows[0]).toMatchObject({ in_storage: true, logo_size_bytes: logo.length });
    expect(await fileStorage(a).stat(rows[0].logo_storage_key)).not.toBeNull();

    // A replaced logo's file goes with it.
    const again = await a.request('POST', '/v1/Suppliers/200003/logo', {
      as: ADMIN,
      body: fileForm(logo, 'logo2.png', 'image/png'),
    });
    expect(again.status, again.text).toBe(200);
    expect(await fileStorage(a).stat(rows[0].logo_storage_key)).toBeNull();
  }, 60_000);

  it('downloads an onboarding form template uploaded through A through B, byte for byte', async () => {
    const template = pdfBytes();
    const up = await a.request('POST', '/v1/SupplierOnboardingFormTemplates/200003', {
      as: ADMIN,
      body: fileForm(template, 'neukunden.pdf', 'application/pdf'),
    });
    expect(up.status, up.text).toBe(200);
    const download = await viaB('/v1/SupplierOnboardingFormTemplates/200003', BUYER);
    expect(download.status).toBe(200);
    expect((await bytesOf(download)).equals(template)).toBe(true);
    const { rows } = await a.pool.query(
      `SELECT onboarding_form_template IS NULL AS in_storage, onboarding_form_template_storage_key AS key
         FROM suppliers WHERE bp_number = '200003'`,
    );
    expect(rows[0]).toMatchObject({ in_storage: true });
    const removed = await a.request('DELETE', '/v1/SupplierOnboardingFormTemplates/200003', { as: ADMIN });
    expect(removed.status, removed.text).toBe(204);
    expect(await fileStorage(a).stat(rows[0].key)).toBeNull();
  }, 60_000);

  it("downloads an order line attachment through B after checkout on A; deleting the cart item never takes the order's file", async () => {
    const cart = await a.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Knoten-Bestellung' } });
    expect(cart.status, cart.text).toBe(201);
    const item = await a.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    expect(item.status, item.text).toBeLessThan(300);
    const content = await pngBytes();
    const attached = await a.request('POST', `/v1/CartItems/${item.body.cartItemId}/attachments`, {
      as: BUYER,
      body: fileForm(content, 'skizze.png', 'image/png'),
    });
    expect(attached.status, attached.text).toBe(200);
    const { rows: cartRows } = await a.pool.query(
      `SELECT content IS NULL AS in_storage, storage_key FROM cart_item_attachments WHERE cart_item_id = $1`,
      [item.body.cartItemId],
    );
    expect(cartRows[0]).toMatchObject({ in_storage: true });
    const key = cartRows[0].storage_key as string;

    const checkout = await a.request('POST', `/v1/MultiCarts/${cart.body.id}/checkout`, { as: BUYER });
    expect(checkout.status, checkout.text).toBe(200);
    const { rows: lines } = await a.pool.query(
      `SELECT so.supplier_order_number, l.id AS line_id, a.id, a.storage_key, a.content IS NULL AS in_storage
         FROM order_line_attachments a JOIN order_lines l ON l.id = a.order_line_id
         JOIN supplier_orders so ON so.id = l.supplier_order_id JOIN customer_orders co ON co.id = so.customer_order_id
        WHERE co.customer_order_number = $1`,
      [checkout.body.customerOrderNumber],
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ in_storage: true, storage_key: key });
    const url = `/v1/SupplierOrders/${lines[0].supplier_order_number}/lines/${lines[0].line_id}/attachments/${lines[0].id}`;

    // Whatever becomes of the cart (items deleted, cart gone), the sweep keeps the file the order names.
    await a.pool.query('DELETE FROM cart_items WHERE id = $1', [item.body.cartItemId]);
    await a.pool.query(`UPDATE stored_files SET created_at = now() - interval '2 hours' WHERE key = $1`, [key]);
    const sweeper = new CartItemsService(a.db, undefined as never, fileStorage(a));
    await sweeper.removeUnreferencedAttachments();
    const download = await viaB(url, BUYER);
    expect(download.status).toBe(200);
    expect((await bytesOf(download)).equals(content)).toBe(true);

    // A file no row names any more goes (once old enough); a young one stays.
    const orphan = 'files/cart-attachments/0/verwaist';
    const young = 'files/cart-attachments/0/frisch';
    await fileStorage(a).put(orphan, Buffer.from('x'));
    await fileStorage(a).put(young, Buffer.from('y'));
    await a.pool.query(`UPDATE stored_files SET created_at = now() - interval '2 hours' WHERE key = $1`, [orphan]);
    await sweeper.removeUnreferencedAttachments();
    expect(await fileStorage(a).stat(orphan)).toBeNull();
    expect(await fileStorage(a).stat(young)).not.toBeNull();
    expect(await fileStorage(a).stat(key)).not.toBeNull();
  }, 60_000);

  it('keeps serving attachments, logos and templates stored in their rows before the file storage', async () => {
    const cart = await a.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Alte Anhänge' } });
    const item = await a.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    const old = Buffer.from('Alt;1\r\n');
    const { rows } = await a.pool.query(
      `INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, content)
       VALUES ($1, 'alt.csv', 'text/csv', $2, $3) RETURNING id`,
      [item.body.cartItemId, old.length, old],
    );
    const attachment = await viaB(`/v1/CartItems/${item.body.cartItemId}/attachments/${rows[0].id}`, BUYER);
    expect(attachment.status).toBe(200);
    expect((await bytesOf(attachment)).equals(old)).toBe(true);
    // Neither place: refused by the database.
    await expect(
      a.pool.query(
        `INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes) VALUES ($1, 'x', 'text/csv', 1)`,
        [item.body.cartItemId],
      ),
    ).rejects.toThrow(/bytes_somewhere/);

    const logo = await pngBytes(30, 30);
    await a.pool.query(
      `UPDATE suppliers SET logo = $1, logo_storage_key = NULL, logo_size_bytes = NULL, logo_file_name = 'alt.png',
              logo_content_type = 'image/png', logo_version = logo_version + 1 WHERE bp_number = '200002'`,
      [logo],
    );
    const shown = await viaB('/v1/Suppliers/200002/logo?original=true');
    expect(shown.status).toBe(200);
    expect((await bytesOf(shown)).equals(logo)).toBe(true);
    expect((await viaB('/v1/Suppliers/200002/logo?size=48')).status).toBe(200);

    const template = pdfBytes();
    await a.pool.query(
      `UPDATE suppliers SET onboarding_form_template = $1, onboarding_form_template_file_name = 'alt.pdf'
        WHERE bp_number = '200002'`,
      [template],
    );
    const form = await viaB('/v1/SupplierOnboardingFormTemplates/200002', BUYER);
    expect(form.status).toBe(200);
    expect((await bytesOf(form)).equals(template)).toBe(true);
  }, 60_000);

  it('sweeps uploads in the database that no unfinished import names, once they are old enough', async () => {
    // An import still to run keeps its upload (no job: nothing runs it during the test); written first, so that
    // node B's own sweeper never sees the upload without it.
    await insertImport(a.pool, {
      supplier: '200003',
      fileName: 'wartet.xml',
      filePath: storageRef('catalogue-imports/wartet.upload'),
      userId: null,
    });
    const storage = fileStorage(a);
    for (const name of ['verwaist', 'frisch', 'wartet'])
      await storage.put(`catalogue-imports/${name}.upload`, Buffer.from('<BMECAT/>'));
    await a.pool.query(
      `UPDATE stored_files SET created_at = now() - interval '1 hour' WHERE key IN ('catalogue-imports/verwaist.upload', 'catalogue-imports/wartet.upload')`,
    );
    await new ImportSweeper(a).removeOrphanFiles();
    const { rows } = await a.pool.query(
      `SELECT key FROM stored_files WHERE key LIKE 'catalogue-imports/%' ORDER BY key`,
    );
    expect(rows.map((r) => r.key)).toEqual(['catalogue-imports/frisch.upload', 'catalogue-imports/wartet.upload']);
  });

  it('downloads an order document a seller uploaded through A through B, and none of it is in a row', async () => {
    const { rows: co } = await a.pool.query(
      `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, cart_name, total_net, delivery_cost_total, dispatch_to, customer_address)
       VALUES ('KB-KNOTEN-1', '100001', '00000000-0000-4000-8000-000000000001', 'Knoten', 100, 0, 'Köln', '{}') RETURNING id`,
    );
    await a.pool.query(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, supplier_customer_number, net_value, delivery_cost)
       VALUES ('LB-KNOTEN-1', $1, '200001', '100001', 'K-10001', 100, 0)`,
      [co[0].id],
    );
    const content = Buffer.from('Lieferschein;Menge\r\nLB-KNOTEN-1;2\r\n');
    const up = await a.request('POST', '/v1/SupplierOrders/LB-KNOTEN-1/Attachments', {
      as: SELLER,
      body: fileForm(content, 'lieferschein.csv', 'text/csv'),
    });
    expect(up.status, up.text).toBe(200);
    const download = await viaB(`/v1/SupplierOrders/LB-KNOTEN-1/Attachments/${up.body[0].id}`, SELLER);
    expect(download.status).toBe(200);
    const served = await bytesOf(download);
    expect(served.length).toBeGreaterThan(0);
    expect(served.toString()).toContain('LB-KNOTEN-1;2');
    const { rows } = await a.pool.query(
      `SELECT content IS NULL AS in_storage, storage_key FROM supplier_order_documents WHERE id = $1`,
      [up.body[0].id],
    );
    expect(rows[0]).toMatchObject({ in_storage: true });
    expect(await fileStorage(a).stat(rows[0].storage_key)).not.toBeNull();
    const removed = await a.request('DELETE', `/v1/SupplierOrders/LB-KNOTEN-1/Attachments/${up.body[0].id}`, {
      as: SELLER,
    });
    expect(removed.status).toBe(204);
    expect(await fileStorage(a).stat(rows[0].storage_key)).toBeNull();
  }, 60_000);
});
