/**
 * The cart tables count their changes in read_model_versions, one row per table and slot (migrations 0631, 0660).
 * Two transactions that write the cart tables at the same time must not wait for each other on a version row: with the
 * slot chosen by the backend's process id (mod 64), two pool connections whose process ids share the slot did, so a
 * checkout's cart reset waited for another buyer's commit (bench:checkout). The slot now follows the transaction id.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BUYER = 'einkauf@example.com';
let t: TestApp;
const clients: pg.Client[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await t?.close();
});

/** Two connections whose backends' process ids are equal mod 64 (at most 65 connections by the pigeonhole). */
async function twoConnectionsSharingAPidSlot(): Promise<[pg.Client, pg.Client]> {
  const bySlot = new Map<number, pg.Client>();
  for (;;) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    clients.push(client);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const slot = rows[0].pid % 64;
    const other = bySlot.get(slot);
    if (other) return [other, client];
    bySlot.set(slot, client);
  }
}

const cartVersion = async () =>
  BigInt(
    (
      await t.pool.query<{ v: string }>(
        `SELECT sum(version)::text AS v FROM read_model_versions WHERE table_name = 'carts'`,
      )
    ).rows[0].v,
  );

describe('read-model version slots', () => {
  it('two open transactions writing carts do not wait for each other, also on backends sharing a pid slot', async () => {
    const ids: number[] = [];
    for (const name of ['Slot A', 'Slot B']) {
      const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name } });
      expect(cart.status).toBe(201);
      ids.push(cart.body.id);
    }
    const [a, b] = await twoConnectionsSharingAPidSlot();
    const before = await cartVersion();
    await a.query('BEGIN');
    await a.query(`UPDATE carts SET name = 'Slot A2' WHERE id = $1`, [ids[0]]);
    // The second writer gives up after a second instead of waiting for the first one's commit.
    await b.query(`SET lock_timeout = '1s'`);
    await b.query('BEGIN');
    const second = await b.query(`UPDATE carts SET name = 'Slot B2' WHERE id = $1`, [ids[1]]).then(
      () => 'written',
      (error: Error) => error.message,
    );
    await b.query(second === 'written' ? 'COMMIT' : 'ROLLBACK');
    await a.query('COMMIT');
    expect(second).toBe('written');
    // Both changes counted: the sum over the slots rose once per statement.
    expect(await cartVersion()).toBe(before + 2n);
  });
});
