// One unit of work: what a transaction hands on after its writes (queued mails to the job queue) runs only once
// COMMIT succeeded, in the order registered, and never after a rollback.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, inTransaction } from './pool.ts';

const pool = new pg.Pool({ connectionString: inject('pgAdminUrl'), max: 3 });
const db = createDb(pool);
const table = `t_unit_of_work_${crypto.randomBytes(4).toString('hex')}`;
const committedRows = async () => Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

beforeAll(async () => {
  await pool.query(`CREATE TABLE ${table} (id int)`);
});
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

describe('inTransaction: after-commit actions', () => {
  it('runs the actions after COMMIT, in order, seeing the committed rows from another connection', async () => {
    const seen: string[] = [];
    const result = await inTransaction(db, async (tx) => {
      await tx.$client.query(`INSERT INTO ${table} VALUES (1)`);
      tx.afterCommit(async () => void seen.push(`first: ${await committedRows()} row(s)`));
      tx.afterCommit(async () => void seen.push('second'));
      // Registered, not run: the transaction is still open.
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['first: 1 row(s)', 'second']);
  });

  it('drops the actions when the transaction rolls back', async () => {
    const before = await committedRows();
    let ran = false;
    await expect(
      inTransaction(db, async (tx) => {
        await tx.$client.query(`INSERT INTO ${table} VALUES (2)`);
        tx.afterCommit(async () => void (ran = true));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ran).toBe(false);
    expect(await committedRows()).toBe(before);
  });

  it('drops the actions when COMMIT itself fails (a deferred constraint)', async () => {
    const deferred = `${table}_deferred`;
    await pool.query(`CREATE TABLE ${deferred} (id int, CONSTRAINT one UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)`);
    try {
      let ran = false;
      await expect(
        inTransaction(db, async (tx) => {
          await tx.$client.query(`INSERT INTO ${deferred} VALUES (1), (1)`);
          tx.afterCommit(async () => void (ran = true));
        }),
      ).rejects.toThrow();
      expect(ran).toBe(false);
    } finally {
      await pool.query(`DROP TABLE ${deferred}`);
    }
  });
});
