/**
 * Backup and restore of the default installation, the embedded PostgreSQL under DATA_DIR (which has no pg_dump): a
 * portal on it gets an order, a cart with an attachment, an order placed with an attachment and a supplier logo;
 * `backup` takes a physical online backup while the portal runs and writes into the database; the portal stops;
 * `restore` places the backup into a fresh, empty DATA_DIR, and the portal started on it (PostgreSQL replays the
 * WAL of the backup) shows the same orders and carts and hands out the same bytes for every file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/bootstrap.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { seedDemoWorldIfEmpty } from '../../src/seed/demo-world.ts';
import { backup, restore } from '../../src/tools/backup-restore.ts';
import { embeddedPostgresMajor } from '../../src/tools/physical-backup.ts';
import { freePort } from '../support/free-port.ts';
import { loginWithCodeFlow } from '../support/oidc-login.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { fileForm, pngBytes } from '../support/supplier-fixtures.ts';
import { eventually } from '../support/test-app.ts';

const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
}, 120_000);

interface Installation extends Runtime {
  config: AppConfig;
  get: (url: string, token: string) => Promise<Response>;
  post: (url: string, token: string, body: unknown) => Promise<Response>;
  stop: () => Promise<void>;
}

/** `npm start` without DATABASE_URL: the embedded PostgreSQL under DATA_DIR/postgres and the API on it. */
async function startInstallation(dataDir: string, storageBackend: string): Promise<Installation> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    STORAGE_BACKEND: storageBackend,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  });
  const database = await openDatabase(config);
  const runtime = await createRuntime(config, database.url, {
    logger: { level: 'silent' },
    log: { info() {}, error() {}, warn() {} } as unknown as Console,
  });
  await runtime.app.listen({ port, host: '127.0.0.1' });
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      await runtime.close();
      await database.stop();
    })());
  cleanups.push(stop);
  const request = (method: string, url: string, token: string, body?: unknown) =>
    fetch(`${config.publicUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    ...runtime,
    config,
    stop,
    get: (url, token) => request('GET', url, token),
    post: (url, token, body) => request('POST', url, token, body),
  };
}

const clusterSecrets = async (installation: Installation) =>
  JSON.stringify((await installation.pool.query('SELECT * FROM cluster_secrets ORDER BY 1')).rows);
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shk-${name}-`));
  // As root the embedded server runs as the OS user 'postgres', which must reach DATA_DIR/postgres.
  fs.chmodSync(dir, 0o755);
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe.each(['local', 'postgres'])('eingebettete PostgreSQL, STORAGE_BACKEND=%s', (backend) => {
  it('restores orders, carts and files into a fresh DATA_DIR', async () => {
    const a = await startInstallation(tempDir('eingebettet-alt'), backend);
    await seedDemoWorldIfEmpty(a.db);
    await insertTestOffers(a.pool);
    const admin = (await loginWithCodeFlow(a.config.publicUrl, ADMIN)).access_token;
    const buyer = (await loginWithCodeFlow(a.config.publicUrl, BUYER)).access_token;

    await a.pool.query(
      `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at, status_id)
       SELECT 'SICHERUNG-E1', '100001', id, 99.5, 4.9, '{}', now(), 1 FROM users WHERE email = $1`,
      [BUYER],
    );
    const cart = await (await a.post('/v1/MultiCarts', buyer, { name: 'Gesicherter Korb' })).json();
    const item = await (
      await a.post('/v1/CartItems', buyer, { cartId: cart.id, productInstanceId: offers.nordbad, quantity: 3 })
    ).json();
    const attachmentBytes = Buffer.from('Aufmaß;Menge\r\nBad OG;3\r\n');
    const attached = await (
      await a.post(
        `/v1/CartItems/${item.cartItemId}/attachments`,
        buyer,
        fileForm(attachmentBytes, 'aufmass.csv', 'text/csv'),
      )
    ).json();
    const attachmentUrl = `/v1/CartItems/${item.cartItemId}/attachments/${attached[attached.length - 1].id}`;
    const ordered = await (await a.post('/v1/MultiCarts', buyer, { name: 'Bestellter Korb' })).json();
    const orderedItem = await (
      await a.post('/v1/CartItems', buyer, { cartId: ordered.id, productInstanceId: offers.nordbad, quantity: 1 })
    ).json();
    const sketch = await pngBytes(24, 24);
    const sketchUp = await a.post(
      `/v1/CartItems/${orderedItem.cartItemId}/attachments`,
      buyer,
      fileForm(sketch, 'skizze.png', 'image/png'),
    );
    expect(sketchUp.status).toBe(200);
    const checkout = await a.post(`/v1/MultiCarts/${ordered.id}/checkout`, buyer, {});
    expect(checkout.status, await checkout.clone().text()).toBe(200);
    const { rows: lines } = await a.pool.query(
      `SELECT so.supplier_order_number, l.id AS line_id, at.id FROM order_line_attachments at
         JOIN order_lines l ON l.id = at.order_line_id JOIN supplier_orders so ON so.id = l.supplier_order_id
         JOIN customer_orders co ON co.id = so.customer_order_id WHERE co.customer_order_number = $1`,
      [(await checkout.json()).customerOrderNumber],
    );
    const lineAttachmentUrl = `/v1/SupplierOrders/${lines[0].supplier_order_number}/lines/${lines[0].line_id}/attachments/${lines[0].id}`;
    const logo = await pngBytes(64, 16);
    expect((await a.post('/v1/Suppliers/200003/logo', admin, fileForm(logo, 'logo.png', 'image/png'))).status).toBe(
      200,
    );

    // The placed order is transmitted in the background; once it waits for confirmation nothing changes it any more.
    const orders = await eventually(async () => {
      const text = await (await a.get('/v1/CustomerOrders', buyer)).text();
      return (
        JSON.parse(text).items.some(
          (o: { orderNumber: string; customerOrderStatusId: number }) =>
            o.orderNumber.startsWith('KB-') && o.customerOrderStatusId === 2,
        ) && text
      );
    }, 60_000);
    const before = {
      orders,
      carts: await (await a.get('/v1/MultiCarts', buyer)).text(),
      attachment: await bytes(await a.get(attachmentUrl, buyer)),
      lineAttachment: await bytes(await a.get(lineAttachmentUrl, buyer)),
      logo: await bytes(await a.get('/v1/Suppliers/200003/logo?original=true', buyer)),
    };
    expect(before.orders).toContain('SICHERUNG-E1');
    expect(before.attachment.equals(attachmentBytes)).toBe(true);
    expect(before.lineAttachment.equals(sketch)).toBe(true);
    expect(before.logo.equals(logo)).toBe(true);

    const secretsBefore = await clusterSecrets(a);

    // Backup while the portal runs and the database is written to: the WAL of the backup replays those writes.
    await a.pool.query('CREATE TABLE sicherung_last (n int, filler text)');
    let writing = true;
    const writer = (async () => {
      while (writing)
        await a.pool.query(`INSERT INTO sicherung_last SELECT g, repeat('x', 500) FROM generate_series(1, 500) g`);
    })();
    const saved = tempDir('sicherung-eingebettet');
    let manifest;
    try {
      manifest = await backup(a.config, saved);
    } finally {
      writing = false;
      await writer;
    }
    expect(manifest).toMatchObject({
      databaseFormat: 'physical',
      postgresMajor: embeddedPostgresMajor(),
      storageBackend: backend,
    });
    expect(fs.existsSync(path.join(saved, 'database-physical/data/backup_label'))).toBe(true);
    expect(fs.existsSync(path.join(saved, 'database-physical/data/postmaster.pid'))).toBe(false);
    expect(fs.existsSync(path.join(saved, 'database.dump'))).toBe(false);
    if (backend === 'local') expect(manifest.files).toBeGreaterThanOrEqual(3);
    await a.stop();

    // A fresh, empty DATA_DIR: no embedded cluster yet.
    const freshDir = tempDir('eingebettet-neu');
    const freshConfig = { ...a.config, dataDir: freshDir, embeddedPgPort: await freePort() };
    await restore(freshConfig, saved);
    await expect(restore(freshConfig, saved)).rejects.toThrow(/nicht leer/);
    // Into a DATABASE_URL installation a physical backup does not go.
    await expect(
      restore({ ...freshConfig, databaseUrl: 'postgres://127.0.0.1:1/nichts', dataDir: tempDir('leer') }, saved),
    ).rejects.toThrow(/ohne DATABASE_URL/);

    // A backup of another PostgreSQL major version is refused before anything is placed.
    const otherMajor = tempDir('sicherung-andere-version');
    fs.cpSync(saved, otherMajor, { recursive: true });
    fs.writeFileSync(
      path.join(otherMajor, 'manifest.json'),
      JSON.stringify({ ...manifest, postgresMajor: embeddedPostgresMajor() - 1 }),
    );
    const untouched = tempDir('leer-version');
    await expect(restore({ ...freshConfig, dataDir: untouched }, otherMajor)).rejects.toThrow(/Hauptversion/);
    expect(fs.readdirSync(untouched)).toEqual([]);

    const b = await startInstallation(freshDir, backend);
    // The same signing keys (in the database) and the same keys of DATA_DIR.
    expect(await clusterSecrets(b)).toBe(secretsBefore);
    const workflowKey = 'transmission/workflow-secret.key';
    if (fs.existsSync(path.join(a.config.dataDir, workflowKey)))
      expect(fs.readFileSync(path.join(freshDir, workflowKey))).toEqual(
        fs.readFileSync(path.join(a.config.dataDir, workflowKey)),
      );
    const { rows: load } = await b.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sicherung_last');
    expect(load[0]!.n % 500).toBe(0);
    const buyerB = (await loginWithCodeFlow(b.config.publicUrl, BUYER)).access_token;
    expect(await (await b.get('/v1/CustomerOrders', buyerB)).text()).toBe(before.orders);
    expect(await (await b.get('/v1/MultiCarts', buyerB)).text()).toBe(before.carts);
    expect((await bytes(await b.get(attachmentUrl, buyerB))).equals(before.attachment)).toBe(true);
    expect((await bytes(await b.get(lineAttachmentUrl, buyerB))).equals(before.lineAttachment)).toBe(true);
    expect((await bytes(await b.get('/v1/Suppliers/200003/logo?original=true', buyerB))).equals(before.logo)).toBe(
      true,
    );
    await b.stop();
  }, 300_000);

  it('fails the backup when the WAL from its start was reused meanwhile, and leaves the directory empty', async () => {
    const a = await startInstallation(tempDir('eingebettet-wal'), backend);
    // As little WAL kept as PostgreSQL allows: a checkpoint after a few segment switches reuses the oldest ones.
    for (const setting of [`max_wal_size = '32MB'`, `min_wal_size = '32MB'`, `wal_keep_size = 0`])
      await a.pool.query(`ALTER SYSTEM SET ${setting}`);
    await a.pool.query('SELECT pg_reload_conf()');
    await a.pool.query('CREATE TABLE sicherung_last (n int)');
    const saved = tempDir('sicherung-wal');
    const writeMuchWal = async () => {
      for (let i = 0; i < 6; i++) {
        await a.pool.query('INSERT INTO sicherung_last VALUES ($1)', [i]);
        await a.pool.query('SELECT pg_switch_wal()');
      }
      await a.pool.query('CHECKPOINT');
    };
    await expect(backup(a.config, saved, () => {}, { whileCopying: writeMuchWal })).rejects.toThrow(
      /Die Sicherung ist unvollständig: die WAL-Datei [0-9A-F]{24} .*wiederverwendet/,
    );
    expect(fs.readdirSync(saved)).toEqual([]);
    // With the usual WAL settings again (the scarce ones above also let a background checkpoint reuse a file), the
    // same installation is backed up fine into the same directory.
    for (const setting of ['max_wal_size', 'min_wal_size', 'wal_keep_size'])
      await a.pool.query(`ALTER SYSTEM RESET ${setting}`);
    await a.pool.query('SELECT pg_reload_conf()');
    await expect(backup(a.config, saved)).resolves.toMatchObject({ databaseFormat: 'physical' });
    await a.stop();
  }, 120_000);
});
