/**
 * A catalogue import whose process is killed with SIGKILL mid-import resumes from its last committed batch once a
 * process runs again (the import's lease ran out: the sweeper queues it), finishes, and the supplier's offers, search
 * rows and facet counts agree afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, eventually, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const children: ChildProcess[] = [];
const SUPPLIER = '200004';
const PRODUCTS = 12_000;
const BATCH = 1_000;
const ADMIN = 'admin@example.com';

beforeAll(async () => {
  // This process runs no imports: the API processes the test kills do.
  t = await startTestApp({ env: { CATALOGUE_IMPORT_WORKER: 'off' } });
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await t?.close();
});

function startApi(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'api-child.ts')], {
    cwd: path.resolve(import.meta.dirname, '../../../..'),
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.config.dataDir,
      PUBLIC_URL: t.config.publicUrl,
      WEB_DIST_DIR: t.config.webDistDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TRANSMISSION_WORKER: 'off',
      REPORT_WORKER: 'off',
      ORDRSP_PICKUP: 'off',
      CATALOGUE_IMPORT_BATCH_SIZE: String(BATCH),
      CATALOGUE_IMPORT_LEASE_MS: '3000',
      CATALOGUE_IMPORT_SWEEP_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`api exited with ${code}`)));
  });
}

function catalogue(count: number) {
  const products = Array.from(
    { length: count },
    (_, i) => `<PRODUCT mode="new"><SUPPLIER_PID>KILL-${i}</SUPPLIER_PID><PRODUCT_DETAILS>
<DESCRIPTION_SHORT>Absturzfester Rohrbogen ${i} Kupfer</DESCRIPTION_SHORT><DESCRIPTION_LONG>Rohrbogen ${i} für Trinkwasser.</DESCRIPTION_LONG>
<MANUFACTURER_PID>RB-${i}</MANUFACTURER_PID><MANUFACTURER_NAME>Rohrwerk Absturz</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${(5 + (i % 90)).toFixed(2)}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>KILL</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${products.join('')}</T_UPDATE_PRODUCTS></BMECAT>\n`;
}

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

it('an import killed with SIGKILL mid-batch resumes after a restart, finishes, and search agrees with the offers', async () => {
  const form = new FormData();
  form.append('file', new Blob([catalogue(PRODUCTS)]), 'absturz.xml');
  const res = await t.request('POST', `/v1/Suppliers/${SUPPLIER}/CatalogueImports`, { as: ADMIN, body: form });
  expect(res.status, res.text).toBe(202);
  const id = res.body.id;

  const first = await startApi();
  // Killed once a few batches are committed completely, while the next ones are being merged.
  await eventually(async () => {
    const [row] = await sql('SELECT resume_articles, status FROM catalogue_imports WHERE id = $1', [id]);
    return row.resume_articles >= 3 * BATCH || (row.status !== 'InProgress' && row.status !== 'Pending');
  }, 60_000);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const [killed] = await sql(
    'SELECT status, resume_articles, attempts, file_path FROM catalogue_imports WHERE id = $1',
    [id],
  );
  expect(killed.status).toBe('InProgress'); // killed mid-import
  expect(killed.resume_articles).toBeGreaterThan(0);
  expect(killed.resume_articles).toBeLessThan(PRODUCTS);

  // Meanwhile another supplier's search rows disagree with its offers (as a crash of an older version left them): the
  // check at start repairs them.
  const [lost, wrong] = await sql(
    `SELECT o.product_no AS id FROM product_offers o WHERE o.supplier_bp_number = '200001'
        AND NOT EXISTS (SELECT 1 FROM product_offers x WHERE x.product_no = o.product_no AND x.supplier_bp_number <> '200001')
      ORDER BY o.product_no LIMIT 2`,
  );
  await sql('DELETE FROM product_search WHERE id = $1', [lost.id]);
  await sql(`UPDATE product_search SET supplier_nos = '{}' WHERE id = $1`, [wrong.id]);

  const restarted = Date.now();
  await startApi();
  // Resumed within a minute of the restart (lease 3 s here; the default is 30 s).
  await eventually(
    async () => (await sql('SELECT attempts FROM catalogue_imports WHERE id = $1', [id]))[0].attempts === 2,
    60_000,
  );
  expect(Date.now() - restarted).toBeLessThan(60_000);
  const done = await eventually(async () => {
    const r = await t.request('GET', `/v1/Suppliers/${SUPPLIER}/CatalogueImports/${id}`, { as: ADMIN });
    return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
  }, 120_000);
  expect(done.status).toBe('Completed');
  expect(done.counts.read).toBe(PRODUCTS);
  // The batches committed before the kill are not read again: at most the batches in flight at the kill (two) are
  // merged a second time (as unchanged or updated); everything else was created exactly once.
  expect(done.counts.created + done.counts.updated + done.counts.unchanged).toBe(PRODUCTS);
  expect(done.counts.created).toBeGreaterThanOrEqual(PRODUCTS - 2 * BATCH);
  const [row] = await sql('SELECT attempts FROM catalogue_imports WHERE id = $1', [id]);
  expect(row.attempts).toBe(2);

  // Offers, search rows and the supplier facet agree.
  const [offers] = await sql(
    `SELECT count(*)::int AS offers, count(DISTINCT product_no)::int AS products FROM product_offers
      WHERE supplier_bp_number = $1 AND supplier_pid LIKE 'KILL-%'`,
    [SUPPLIER],
  );
  expect(offers).toEqual({ offers: PRODUCTS, products: PRODUCTS });
  const [search] = await sql(
    `SELECT count(*)::int AS rows,
            count(*) FILTER (WHERE s.supplier_nos @> ARRAY[n.supplier_no])::int AS facet
       FROM product_offers o JOIN catalogue_supplier_numbers n ON n.bp_number = o.supplier_bp_number
       JOIN product_search s ON s.id = o.product_no
      WHERE o.supplier_bp_number = $1 AND o.supplier_pid LIKE 'KILL-%'`,
    [SUPPLIER],
  );
  expect(search).toEqual({ rows: PRODUCTS, facet: PRODUCTS });
  const [facet] = await sql(
    `SELECT count(*)::int AS n FROM product_search s JOIN catalogue_supplier_numbers n ON s.supplier_nos @> ARRAY[n.supplier_no]
      WHERE n.bp_number = $1 AND NOT EXISTS (SELECT 1 FROM product_offers o WHERE o.product_no = s.id AND o.supplier_bp_number = $1)`,
    [SUPPLIER],
  );
  expect(facet.n).toBe(0);
  await eventually(async () => {
    const rows = await sql(
      `SELECT s.id FROM product_search s JOIN catalogue_supplier_numbers n ON n.bp_number = '200001'
        WHERE s.id = ANY($1) AND s.supplier_nos @> ARRAY[n.supplier_no]`,
      [[lost.id, wrong.id]],
    );
    return rows.length === 2;
  }, 30_000);
  // The upload is gone with the import (removed when the run ends, right after its last transaction).
  await eventually(async () => !fs.existsSync(killed.file_path), 30_000);
}, 240_000);
