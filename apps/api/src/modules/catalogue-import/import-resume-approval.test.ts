/**
 * A full catalogue resumed after a crash keeps what its earlier attempt decided and recorded: the warnings of the
 * batches committed before the crash, one undo record per article (the state before the import, not the state the
 * first attempt left), and the check's decision to wait for approval — also when the crash came after that decision.
 * A catalogue waiting for approval is an end: the sweeper does not resume it, its file may go, the consistency check
 * leaves its list alone.
 *
 * The crash is another process taking the import's lease over (as the sweeper of a live process does after a process
 * died): the first run stops at its next batch, leaving the import InProgress at its last committed batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertImport, orphanedImports, unfinishedImportFiles } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';
import { checkAllSuppliers } from './consistency.ts';

const SUPPLIER = '200001';
const ADMIN = 'admin@example.com';
const PRODUCTS = 80;
const BATCH = 4;
/** The resume point at which the lease is taken away from the first run. */
const STOLEN_AT = 12;

let t: TestApp;
beforeAll(async () => {
  // This test runs the import itself: no worker or sweeper of the app may take it over.
  t = await startTestApp({ env: { CATALOGUE_IMPORT_WORKER: 'off' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;
const offersOf = async () =>
  (await sql('SELECT count(*)::int AS n FROM product_offers WHERE supplier_bp_number = $1', [SUPPLIER]))[0].n as number;

/** A full catalogue of new articles, each with a GTIN whose check digit is wrong (a warning: imported without it). */
function catalogue() {
  const products = Array.from(
    { length: PRODUCTS },
    (_, i) => `<PRODUCT mode="new"><SUPPLIER_PID>WIEDER-${i}</SUPPLIER_PID><PRODUCT_DETAILS>
<DESCRIPTION_SHORT>Wiederaufnahme Eckventil ${i}</DESCRIPTION_SHORT><INTERNATIONAL_PID type="gtin">1234567890123</INTERNATIONAL_PID>
<MANUFACTURER_PID>WA-${i}</MANUFACTURER_PID><MANUFACTURER_NAME>Ventilwerk Wiederaufnahme</MANUFACTURER_NAME></PRODUCT_DETAILS>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY></PRODUCT_ORDER_DETAILS>
<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.90</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>W</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_NEW_CATALOG>${products.join('')}</T_NEW_CATALOG></BMECAT>\n`;
}

/** What the import recorded: warnings per position, undo records, its list of offers to withdraw. */
async function recorded(id: number) {
  const [warnings] = await sql(
    `SELECT count(*)::int AS rows, count(DISTINCT position)::int AS positions, coalesce(max(seq), 0)::int AS max_seq
       FROM catalogue_import_warnings WHERE import_id = $1`,
    [id],
  );
  const [undo] = await sql(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE offer IS NULL)::int AS created
       FROM catalogue_import_undo_offers WHERE import_id = $1`,
    [id],
  );
  const [pending] = await sql(
    'SELECT count(*)::int AS n FROM catalogue_import_pending_withdrawals WHERE import_id = $1',
    [id],
  );
  return { warnings, undo, pending: pending.n as number };
}

it('resumes with the earlier batches’ warnings and undo records, and keeps waiting for approval after a late crash', async () => {
  const before = await offersOf();
  expect(before).toBeGreaterThan(10);
  const file = path.join(t.config.dataDir, 'wiederaufnahme.xml');
  fs.writeFileSync(file, catalogue());
  const id = await insertImport(t.pool, {
    supplier: SUPPLIER,
    fileName: 'wiederaufnahme.xml',
    filePath: file,
    userId: null,
  });

  // First attempt: once 12 articles are committed completely, another process takes the lease over (the update of the
  // resume point is held a second, so the heartbeat notices before the import reaches its end).
  await sql(`CREATE OR REPLACE FUNCTION test_steal_lease() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.resume_articles >= ${STOLEN_AT} AND OLD.resume_articles < ${STOLEN_AT} THEN
        NEW.lease_owner := 'ein-anderer-prozess';
        PERFORM pg_sleep(1);
      END IF;
      RETURN NEW;
    END $$`);
  await sql(`CREATE TRIGGER test_steal_lease BEFORE UPDATE OF resume_articles ON catalogue_imports
             FOR EACH ROW EXECUTE FUNCTION test_steal_lease()`);
  const first = await runImport(t.pool, id, { batchSize: BATCH, leaseMs: 300 });
  await sql('DROP TRIGGER test_steal_lease ON catalogue_imports');
  await sql('DROP FUNCTION test_steal_lease()');
  expect(first.read).toBe(0); // the run stopped without ending the import
  const [stopped] = await sql('SELECT status, resume_articles, attempts FROM catalogue_imports WHERE id = $1', [id]);
  expect(stopped.status).toBe('InProgress');
  expect(stopped.resume_articles).toBeGreaterThanOrEqual(STOLEN_AT);
  expect(stopped.resume_articles).toBeLessThan(PRODUCTS);
  const early = await recorded(id);
  expect(early.warnings.positions).toBeGreaterThanOrEqual(STOLEN_AT);
  expect(early.undo.rows).toBeGreaterThanOrEqual(STOLEN_AT);
  expect(await offersOf()).toBe(before + early.undo.rows); // nothing withdrawn yet

  // Second attempt, once the other process's lease has run out: resumes after the committed batches.
  await sql(`UPDATE catalogue_imports SET lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
  const second = await runImport(t.pool, id, { batchSize: BATCH });
  expect(second.read).toBe(PRODUCTS);
  expect(second.created + second.updated + second.unchanged).toBe(PRODUCTS);
  expect(second.created).toBeGreaterThanOrEqual(PRODUCTS - 3 * BATCH);
  const [waiting] = await sql(
    'SELECT status, attempts, warning_count, deleted_count, preview FROM catalogue_imports WHERE id = $1',
    [id],
  );
  expect(waiting).toMatchObject({ status: 'AwaitingApproval', attempts: 2, warning_count: PRODUCTS, deleted_count: 0 });
  expect(waiting.preview).toMatchObject({ assortment: before, toWithdraw: before });
  // Every article's warning once (the earlier batches' kept, a batch merged twice stored once), one undo record per
  // article, each the state before the import (no offer: created by it), none doubled by the batches merged twice.
  const resumed = await recorded(id);
  expect(resumed).toEqual({
    warnings: { rows: PRODUCTS, positions: PRODUCTS, max_seq: 1 },
    undo: { rows: PRODUCTS, created: PRODUCTS },
    pending: before,
  });
  const warnings = await sql('SELECT reason FROM catalogue_import_warnings WHERE import_id = $1 AND position = 1', [
    id,
  ]);
  expect(warnings[0].reason).toContain('ohne GTIN übernommen');
  expect(await offersOf()).toBe(before + PRODUCTS);

  // A crash after the check's transaction, before the import was marked waiting: the next attempt resumes at the end,
  // checks nothing again and waits for approval with the same preview and list; it withdraws nothing.
  await sql(`UPDATE catalogue_imports SET status = 'InProgress', finished_at = NULL WHERE id = $1`, [id]);
  const third = await runImport(t.pool, id, { batchSize: BATCH });
  expect(third).toMatchObject({ read: PRODUCTS, deleted: 0, warnings: PRODUCTS });
  const [again] = await sql('SELECT status, attempts, preview, warning_count FROM catalogue_imports WHERE id = $1', [
    id,
  ]);
  expect(again).toMatchObject({ status: 'AwaitingApproval', attempts: 3, warning_count: PRODUCTS });
  expect(again.preview).toEqual(waiting.preview);
  expect(await recorded(id)).toEqual(resumed);
  expect(await offersOf()).toBe(before + PRODUCTS);

  // Waiting is an end: not resumed by the sweeper, its file may go, the check at start keeps its list and offers.
  expect((await orphanedImports(t.pool, 0)).map((o) => o.id)).not.toContain(id);
  expect(await unfinishedImportFiles(t.pool)).not.toContain(file);
  expect(await runImport(t.pool, id, { batchSize: BATCH })).toMatchObject({ read: 0 });
  await checkAllSuppliers(t.pool);
  expect(await recorded(id)).toEqual(resumed);
  expect(await offersOf()).toBe(before + PRODUCTS);

  // Approved: the listed offers are withdrawn, the file's stay.
  const approved = await t.request('POST', `/v1/Suppliers/${SUPPLIER}/CatalogueImports/${id}/Approve`, { as: ADMIN });
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body).toMatchObject({ status: 'Completed', counts: { deleted: before, warnings: PRODUCTS } });
  expect(await offersOf()).toBe(PRODUCTS);
}, 120_000);
