/**
 * The consistency check at start runs once per catalogue change, not once per process start: a second start (another
 * node, a rolling restart) skips the suppliers checked at the current catalogue version, a catalogue change makes them
 * due again, and a clean check older than a day is repeated even without a change (a fix by hand raises no version).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { checkAllSuppliers } from './consistency.ts';

const SUPPLIER = '200001';
let t: TestApp;
beforeAll(async () => {
  // The app's own sweeper would run the check at its start: this test runs it itself.
  t = await startTestApp({ env: { CATALOGUE_IMPORT_WORKER: 'off' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const sql = async (text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows;

it('checks each supplier once until the catalogue changes, then repairs what broke', async () => {
  const first = await checkAllSuppliers(t.pool);
  expect(first.checked).toContain(SUPPLIER);

  // A second process starting now reads nothing.
  expect(await checkAllSuppliers(t.pool)).toEqual({ checked: [], repaired: [] });

  // A search row loses the supplier (as a crashed write could leave it) and the catalogue changes.
  const [{ supplier_no: supplierNo }] = await sql(
    'SELECT supplier_no FROM catalogue_supplier_numbers WHERE bp_number = $1',
    [SUPPLIER],
  );
  const [{ id }] = await sql(
    `SELECT s.id FROM product_search s WHERE s.supplier_nos @> ARRAY[$1::int] ORDER BY s.id LIMIT 1`,
    [supplierNo],
  );
  await sql('UPDATE product_search SET supplier_nos = array_remove(supplier_nos, $1::int) WHERE id = $2', [
    supplierNo,
    id,
  ]);
  await sql('UPDATE catalogue_state SET version = version + 1');
  const afterChange = await checkAllSuppliers(t.pool);
  expect(afterChange.checked).toContain(SUPPLIER);
  expect(afterChange.repaired).toContainEqual({ supplier: SUPPLIER, created: 0, refreshed: 1 });
  const [{ named }] = await sql('SELECT supplier_nos @> ARRAY[$1::int] AS named FROM product_search WHERE id = $2', [
    supplierNo,
    id,
  ]);
  expect(named).toBe(true);

  // Unchanged, but the last clean check is older than a day: checked again.
  expect((await checkAllSuppliers(t.pool)).checked).toEqual([]);
  await sql(`UPDATE catalogue_consistency_checks SET checked_at = now() - interval '25 hours' WHERE bp_number = $1`, [
    SUPPLIER,
  ]);
  expect((await checkAllSuppliers(t.pool)).checked).toEqual([SUPPLIER]);
});
