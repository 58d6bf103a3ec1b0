import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureSettingKey, idsFieldTooLargeText } from '@shk/contracts';
import { readNumberSetting } from '../../src/modules/settings/settings.service.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { fileForm, pdfBytes, pngBytes } from '../support/supplier-fixtures.ts';
import { partnerStorageUsed, PARTNER_STORAGE_QUOTA_MB } from '../../src/lib/uploads/storage-quota.ts';

/**
 * Size limits enforced while the multipart stream is read (a German problem, nothing beyond the limit kept)
 * and the per-partner storage quota on every stored upload: cart item attachments and order documents
 * (uploads.test.ts), a supplier's logo and onboarding form template (here).
 */
let t: TestApp;
const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com';
const SUPPLIER = '200001';

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
});
afterAll(async () => {
  await t?.close();
});

describe('size limits while streaming', () => {
  it('a cart item attachment above the limit is a German 400 problem', async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Grenzen' } });
    const item = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    const maxMb = await readNumberSetting(t.db, FeatureSettingKey.AttachmentsMaxFileSize);
    const big = Buffer.alloc((maxMb + 1) * 1024 * 1024, 0x41);
    const res = await t.request('POST', `/v1/CartItems/${item.body.cartItemId}/attachments`, {
      as: BUYER,
      body: fileForm(big, 'gross.txt', 'text/plain', 'files'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, type: 'maxFileSize' });
    expect(res.body.title).toMatch(/MB/);
  });

  it('a quick order file above 5 MB is refused with the size (not the format) message', async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Schnell' } });
    const res = await t.request('POST', `/v1/MultiCarts/${cart.body.id}/QuickOrder/File`, {
      as: BUYER,
      body: fileForm(Buffer.alloc(5 * 1024 * 1024 + 10, 0x41), 'liste.csv', 'text/csv'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      type: 'maxFileSize',
      title: 'Bitte überprüfen Sie die Dateigröße. Maximal 5 MB sind erlaubt.',
    });
  });

  it('a logo above 1 MB is refused with the German size message', async () => {
    const res = await t.request('POST', `/v1/Suppliers/${SUPPLIER}/logo`, {
      as: ADMIN,
      body: fileForm(Buffer.alloc(1024 * 1024 + 10, 0x89), 'logo.png', 'image/png'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'maxFileSize' });
  });

  // The IDS entry is the craftsman's browser posting a form, so it answers a German page, not a JSON problem.
  it('an IDS cart file is limited to 10 MB (not the app-wide 100 MB): 413, German page', async () => {
    const form = new FormData();
    form.append('action', 'wke');
    form.append('version', '2.5');
    form.append('warenkorb', new Blob([new Uint8Array(Buffer.alloc(11 * 1024 * 1024, 0x20))]), 'warenkorb.xml');
    const res = await t.request('POST', '/ids', { body: form });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain(idsFieldTooLargeText(10));
  });
});

describe("a supplier's logo and onboarding template count in its storage quota", () => {
  it('refuses a logo or template that would take the supplier over its quota (413, German)', async () => {
    const [order] = (
      await t.pool.query<{ id: number }>(`SELECT id FROM supplier_orders WHERE supplier_bp_number = $1 LIMIT 1`, [
        SUPPLIER,
      ])
    ).rows;
    let orderId = order?.id;
    if (!orderId) {
      const { placeOrder } = await import('../transmission/order-fixtures.ts');
      orderId = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }])).supplierOrders[0].id;
    }
    // No stored logo or template, then fill the storage up to 10 bytes below the quota.
    await t.pool.query(`UPDATE suppliers SET logo = NULL, onboarding_form_template = NULL WHERE bp_number = $1`, [
      SUPPLIER,
    ]);
    const free = PARTNER_STORAGE_QUOTA_MB * 1024 * 1024 - (await partnerStorageUsed(t.pool, SUPPLIER)) - 10;
    const [{ id }] = (
      await t.pool.query(
        `INSERT INTO supplier_order_documents (supplier_order_id, file_name, content_type, size_bytes, content)
         VALUES ($1, 'gross.pdf', 'application/pdf', $2, '\\x00') RETURNING id`,
        [orderId, free],
      )
    ).rows;
    try {
      const logo = await t.request('POST', `/v1/Suppliers/${SUPPLIER}/logo`, {
        as: ADMIN,
        body: fileForm(await pngBytes(), 'logo.png', 'image/png'),
      });
      expect(logo.status).toBe(413);
      expect(logo.body).toMatchObject({ status: 413, title: 'Der Speicherplatz ist aufgebraucht.' });
      const template = await t.request('POST', `/v1/SupplierOnboardingFormTemplates/${SUPPLIER}`, {
        as: ADMIN,
        body: fileForm(pdfBytes(), 'formular.pdf', 'application/pdf'),
      });
      expect(template.status).toBe(413);
    } finally {
      await t.pool.query('DELETE FROM supplier_order_documents WHERE id = $1', [id]);
    }
    // With room again both are stored, and then count: the stored logo is part of the supplier's usage.
    const ok = await t.request('POST', `/v1/Suppliers/${SUPPLIER}/logo`, {
      as: ADMIN,
      body: fileForm(await pngBytes(), 'logo.png', 'image/png'),
    });
    expect(ok.status).toBe(200);
    // The logo is in the file storage: the row records its size, which the quota counts.
    const [{ n, in_row: inRow }] = (
      await t.pool.query<{ n: number; in_row: boolean }>(
        `SELECT logo_size_bytes AS n, logo IS NOT NULL AS in_row FROM suppliers WHERE bp_number = $1`,
        [SUPPLIER],
      )
    ).rows;
    expect(inRow).toBe(false);
    expect(Number(n)).toBe((await pngBytes()).length);
    const before = await partnerStorageUsed(t.pool, SUPPLIER);
    await t.pool.query(`UPDATE suppliers SET logo_storage_key = NULL, logo_size_bytes = NULL WHERE bp_number = $1`, [
      SUPPLIER,
    ]);
    expect(before - (await partnerStorageUsed(t.pool, SUPPLIER))).toBe(Number(n));
  });
});
