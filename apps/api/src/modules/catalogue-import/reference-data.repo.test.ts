/**
 * Imports of two suppliers at the same time both create reference data (a new ETIM class, value, feature, brand, tree
 * leaf, their first catalogue number). Each entry's number is the next free one; two sessions that take it at the same
 * moment must both succeed, with different numbers, instead of one failing on the primary key.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import * as repo from './reference-data.repo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * `first` runs in an open transaction and takes the next number; `second` runs meanwhile in its own session (as the
 * other import's reference session does, autocommit) and must wait for it, then take the number after.
 */
async function race<T>(first: (c: pg.PoolClient) => Promise<T>, second: (c: pg.PoolClient) => Promise<T>) {
  const a = await t.pool.connect();
  const b = await t.pool.connect();
  try {
    await a.query('BEGIN');
    const one = await first(a);
    const pending = second(b);
    // The second insert is blocked on the first's uncommitted number until the commit.
    await new Promise((r) => setTimeout(r, 300));
    await a.query('COMMIT');
    return [one, await pending] as const;
  } finally {
    a.release();
    b.release();
  }
}

describe('reference data created by two imports at once', () => {
  it('ETIM classes, features and values get distinct next numbers', async () => {
    const [c1, c2] = await race(
      (c) => repo.insertEtimClass(c, 'EC990001', 'Klasse eins'),
      (c) => repo.insertEtimClass(c, 'EC990002', 'Klasse zwei'),
    );
    expect(c2.class_no).toBe(c1.class_no + 1);
    const [f1, f2] = await race(
      (c) => repo.insertEtimFeature(c, 'EF990001', 'N', 'MMT', 'Merkmal eins'),
      (c) => repo.insertEtimFeature(c, 'EF990002', 'A', null, 'Merkmal zwei'),
    );
    expect(f2.feature_no).toBe(f1.feature_no + 1);
    const [v1, v2] = await race(
      (c) => repo.insertEtimValue(c, 'EV990001', 'Wert eins'),
      (c) => repo.insertEtimValue(c, 'EV990002', 'Wert zwei'),
    );
    expect(v2.value_no).toBe(v1.value_no + 1);
    const stored = await t.pool.query(
      `SELECT (SELECT count(*) FROM etim_classes WHERE class_id IN ('EC990001', 'EC990002'))::int AS classes,
              (SELECT count(*) FROM etim_values WHERE value_id IN ('EV990001', 'EV990002'))::int AS values`,
    );
    expect(stored.rows[0]).toEqual({ classes: 2, values: 2 });
  });

  it('brands and the same new class from both imports: one entry each', async () => {
    await t.pool.query(`INSERT INTO manufacturers (manufacturer_id, name) VALUES ('M990001', 'Rennhersteller')`);
    const [b1, b2] = await race(
      (c) => repo.insertBrand(c, 'Rennmarke Eins', 'M990001'),
      (c) => repo.insertBrand(c, 'Rennmarke Zwei', 'M990001'),
    );
    expect(b2).toBe(b1 + 1);
    // The same code from both: the second finds the first's entry (ON CONFLICT on the code), no second number.
    const [s1, s2] = await race(
      (c) => repo.insertEtimClass(c, 'EC990003', 'Gleiche Klasse'),
      (c) => repo.insertEtimClass(c, 'EC990003', 'Gleiche Klasse'),
    );
    expect(s2.class_no).toBe(s1.class_no);
  });

  it("two suppliers' first imports get distinct catalogue numbers", async () => {
    // Two new suppliers (copies of a demo supplier) without a catalogue number yet.
    for (const bp of ['299901', '299902'])
      await t.pool.query(
        `INSERT INTO business_partners
         SELECT (jsonb_populate_record(NULL::business_partners, to_jsonb(b) || jsonb_build_object('bp_number', $1::text))).*
           FROM business_partners b WHERE b.bp_number = '200001'`,
        [bp],
      );
    const [n1, n2] = await race(
      (c) => repo.ensureSupplierNo(c, '299901'),
      (c) => repo.ensureSupplierNo(c, '299902'),
    );
    expect(n2).toBe(n1 + 1);
    expect(await repo.ensureSupplierNo(t.pool, '299902')).toBe(n2);
  });
});
