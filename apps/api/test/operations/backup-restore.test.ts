/**
 * Backup and restore, round trip, for both storage backends: a portal on Debian's PostgreSQL (a real separate server,
 * DATABASE_URL) gets an order, a cart with an attachment, an order placed with an attachment, a supplier logo and
 * onboarding form template, a report file and a catalogue medium; `backup` runs while it
 * is up; `restore` brings the backup into a fresh installation (an empty database, an empty DATA_DIR), and the API
 * started on it shows the same orders and carts and hands out the same bytes for every file. The keys of DATA_DIR
 * (workflow secret key, AS2 identity) and the signing keys in the database come back with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createDb, createPool } from '../../src/db/pool.ts';
import { migrate } from '../../src/db/migrate.ts';
import { ensureFeatureSettings } from '../../src/modules/settings/settings.service.ts';
import { seedDemoWorldIfEmpty } from '../../src/seed/demo-world.ts';
import { backup, restore } from '../../src/tools/backup-restore.ts';
import { freePort } from '../support/free-port.ts';
import { loginWithCodeFlow } from '../support/oidc-login.ts';
import { eventually } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { addPriceList } from '../support/media-fixtures.ts';
import { fileForm, pdfBytes, pngBytes } from '../support/supplier-fixtures.ts';
import { debianPostgresUnavailable, startDebianPostgres, type DebianPostgres } from '../support/debian-postgres.ts';

const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com';
const unavailable = debianPostgresUnavailable();
if (unavailable) console.warn(`backup-restore.test: ${unavailable}; Test übersprungen.`);

let server: DebianPostgres;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  if (!unavailable) server = await startDebianPostgres();
}, 60_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await server?.stop();
}, 120_000);

interface Node extends Runtime {
  config: AppConfig;
  get: (url: string, token: string) => Promise<Response>;
}

async function startNode(database: string, storageBackend: string, dataDir: string): Promise<Node> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: server.url(database),
    STORAGE_BACKEND: storageBackend,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  });
  const runtime = await createRuntime(config, server.url(database), {
    logger: { level: 'silent' },
    log: { info() {}, error() {}, warn() {} } as unknown as Console,
  });
  await runtime.app.listen({ port, host: '127.0.0.1' });
  const node = {
    ...runtime,
    config,
    get: (url: string, token: string) =>
      fetch(`${config.publicUrl}${url}`, { headers: { authorization: `Bearer ${token}` } }),
  };
  let closed: Promise<void> | null = null;
  node.close = () => (closed ??= runtime.close());
  cleanups.push(() => node.close());
  return node;
}

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shk-${name}-`));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe.skipIf(unavailable).each(['local', 'postgres'])('STORAGE_BACKEND=%s', (backend) => {
  it('restores orders, carts and files into a fresh installation', async () => {
    // The installation: migrated and seeded with the demo world, running.
    const source = `quelle_${backend}`;
    await server.createDatabase(source);
    const seedPool = createPool(server.url(source), 2);
    await migrate(seedPool);
    await ensureFeatureSettings(createDb(seedPool));
    await seedDemoWorldIfEmpty(createDb(seedPool));
    await insertTestOffers(seedPool);
    await seedPool.end();
    const a = await startNode(source, backend, tempDir('alt'));
    const admin = (await loginWithCodeFlow(a.config.publicUrl, ADMIN)).access_token;
    const buyer = (await loginWithCodeFlow(a.config.publicUrl, BUYER)).access_token;
    const post = (url: string, token: string, body: unknown) =>
      fetch(`${a.config.publicUrl}${url}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        body: body instanceof FormData ? body : JSON.stringify(body),
      });

    await a.pool.query(
      `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at, status_id)
       SELECT 'SICHERUNG-1', '100001', id, 99.5, 4.9, '{}', now(), 1 FROM users WHERE email = $1`,
      [BUYER],
    );
    const cart = await (await post('/v1/MultiCarts', buyer, { name: 'Gesicherter Korb' })).json();
    const item = await (
      await post('/v1/CartItems', buyer, { cartId: cart.id, productInstanceId: offers.nordbad, quantity: 3 })
    ).json();
    const attachmentBytes = Buffer.from('Aufmaß;Menge\r\nBad OG;3\r\n');
    const attached = await (
      await post(
        `/v1/CartItems/${item.cartItemId}/attachments`,
        buyer,
        fileForm(attachmentBytes, 'aufmass.csv', 'text/csv'),
      )
    ).json();
    const attachmentUrl = `/v1/CartItems/${item.cartItemId}/attachments/${attached[attached.length - 1].id}`;
    // An order placed from a cart with an attachment: its line names the same stored file.
    const ordered = await (await post('/v1/MultiCarts', buyer, { name: 'Bestellter Korb' })).json();
    const orderedItem = await (
      await post('/v1/CartItems', buyer, { cartId: ordered.id, productInstanceId: offers.nordbad, quantity: 1 })
    ).json();
    const sketch = await pngBytes(24, 24);
    const sketchUp = await post(
      `/v1/CartItems/${orderedItem.cartItemId}/attachments`,
      buyer,
      fileForm(sketch, 'skizze.png', 'image/png'),
    );
    expect(sketchUp.status).toBe(200);
    const checkout = await post(`/v1/MultiCarts/${ordered.id}/checkout`, buyer, {});
    expect(checkout.status, await checkout.clone().text()).toBe(200);
    const { rows: lines } = await a.pool.query(
      `SELECT so.supplier_order_number, l.id AS line_id, at.id FROM order_line_attachments at
         JOIN order_lines l ON l.id = at.order_line_id JOIN supplier_orders so ON so.id = l.supplier_order_id
         JOIN customer_orders co ON co.id = so.customer_order_id WHERE co.customer_order_number = $1`,
      [(await checkout.json()).customerOrderNumber],
    );
    const lineAttachmentUrl = `/v1/SupplierOrders/${lines[0].supplier_order_number}/lines/${lines[0].line_id}/attachments/${lines[0].id}`;
    // A supplier's logo and onboarding form template.
    const logo = await pngBytes(64, 16);
    expect((await post('/v1/Suppliers/200003/logo', admin, fileForm(logo, 'logo.png', 'image/png'))).status).toBe(200);
    const template = pdfBytes();
    const templateUp = await post(
      '/v1/SupplierOnboardingFormTemplates/200003',
      admin,
      fileForm(template, 'neukunden.pdf', 'application/pdf'),
    );
    expect(templateUp.status).toBe(200);
    const report = await (
      await post('/v1/Reports/Generate', admin, {
        reportType: 1,
        startDate: '2025-01-01',
        endDate: '2025-01-31',
        format: 'xlsx',
      })
    ).json();
    await eventually(async () => {
      const list = await (await a.get('/v1/Reports?Page=1&PageSize=25', admin)).json();
      return list.items.find(
        (r: { id: number; reportGenerationStatusId: number }) => r.id === report.id && r.reportGenerationStatusId === 3,
      );
    }, 60_000);
    const priceList = await addPriceList(a, '200001');
    const mediumUrl = `/v1/Documents/Products/${priceList.productNo}/${encodeURIComponent(priceList.file)}`;

    const before = {
      orders: await (await a.get('/v1/CustomerOrders', buyer)).text(),
      carts: await (await a.get('/v1/MultiCarts', buyer)).text(),
      attachment: await bytes(await a.get(attachmentUrl, buyer)),
      report: await bytes(await a.get(`/v1/Reports/Download/${report.id}`, admin)),
      medium: await bytes(await a.get(mediumUrl, buyer)),
      lineAttachment: await bytes(await a.get(lineAttachmentUrl, buyer)),
      logo: await bytes(await a.get('/v1/Suppliers/200003/logo?original=true', buyer)),
      template: await bytes(await a.get('/v1/SupplierOnboardingFormTemplates/200003', buyer)),
    };
    expect(before.lineAttachment.equals(sketch)).toBe(true);
    expect(before.logo.equals(logo)).toBe(true);
    expect(before.template.equals(template)).toBe(true);
    expect(before.orders).toContain('SICHERUNG-1');
    expect(before.report.length).toBeGreaterThan(100);

    // Backup while the portal runs.
    const saved = tempDir('sicherung');
    const manifest = await backup(a.config, saved);
    expect(manifest.storageBackend).toBe(backend);
    if (backend === 'local') expect(manifest.files).toBeGreaterThanOrEqual(5);
    expect(fs.existsSync(path.join(saved, 'database.dump'))).toBe(true);

    // A fresh installation: an empty database, an empty DATA_DIR.
    const target = `ziel_${backend}`;
    await server.createDatabase(target);
    const freshDir = tempDir('neu');
    const freshConfig = { ...a.config, dataDir: freshDir, databaseUrl: server.url(target) };
    await restore(freshConfig, saved);
    await expect(restore(freshConfig, saved)).rejects.toThrow(/nicht leer/);
    const b = await startNode(target, backend, freshDir);

    // The same keys: signing keys and cookie secrets of the embedded provider live in the database and came back with it.
    const secrets = async (node: Node) =>
      JSON.stringify((await node.pool.query('SELECT * FROM cluster_secrets ORDER BY 1')).rows);
    expect(await secrets(b)).toBe(await secrets(a));
    // The users and passwords came back: they sign in on the restored portal (its own address, so new tokens).
    const buyerB = (await loginWithCodeFlow(b.config.publicUrl, BUYER)).access_token;
    const adminB = (await loginWithCodeFlow(b.config.publicUrl, ADMIN)).access_token;
    expect(await (await b.get('/v1/CustomerOrders', buyerB)).text()).toBe(before.orders);
    expect(await (await b.get('/v1/MultiCarts', buyerB)).text()).toBe(before.carts);
    expect((await bytes(await b.get(attachmentUrl, buyerB))).equals(before.attachment)).toBe(true);
    expect((await bytes(await b.get(`/v1/Reports/Download/${report.id}`, adminB))).equals(before.report)).toBe(true);
    expect((await bytes(await b.get(mediumUrl, buyerB))).equals(before.medium)).toBe(true);
    expect((await bytes(await b.get(lineAttachmentUrl, buyerB))).equals(before.lineAttachment)).toBe(true);
    expect((await bytes(await b.get('/v1/Suppliers/200003/logo?original=true', buyerB))).equals(before.logo)).toBe(
      true,
    );
    const templateB = await b.get('/v1/SupplierOnboardingFormTemplates/200003', buyerB);
    expect((await bytes(templateB)).equals(before.template)).toBe(true);
    await b.close();
    await a.close();
  }, 240_000);
});
