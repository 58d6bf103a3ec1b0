// What a strict pool (tests: strictConnectionUse) catches of code that holds one of its connections and asks it for
// another: at once inside a transaction, and by the connect timeout (recorded with the holders) everywhere else.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, hiddenWaitsOf, inClientTransaction } from './pool.ts';

let pool: pg.Pool;
beforeAll(() => {
  pool = createPool(inject('pgAdminUrl'), 1, { connectionTimeoutMillis: 2_000 }, { strictConnectionUse: true });
});
afterAll(async () => {
  await pool?.end();
});

describe('a strict one-connection pool', () => {
  it('refuses a second acquire inside a transaction on a connection taken by hand (an import session)', async () => {
    const session = await pool.connect();
    try {
      await expect(inClientTransaction(session, () => pool.query('SELECT 1'))).rejects.toThrow(/already held/);
      // The session itself is fine afterwards (the transaction rolled back).
      expect((await session.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      session.release();
    }
    expect(hiddenWaitsOf(pool)).toEqual([]);
  });

  it('records a wait that only the connect timeout ended, with the stack of who held the connection', async () => {
    const before = hiddenWaitsOf(pool).length;
    const holder = await pool.connect();
    try {
      await expect(pool.query('SELECT 1')).rejects.toThrow(/timeout exceeded/);
    } finally {
      holder.release();
    }
    const [wait, ...more] = hiddenWaitsOf(pool).slice(before);
    expect(more).toEqual([]);
    expect(wait.waiter).toContain('strict-pool.test.ts');
    expect(wait.holders).toHaveLength(1);
    expect(wait.holders[0]).toContain('strict-pool.test.ts');
  });
});
