import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/**
 * A small fixed data set whose figures are computed by hand below. Berlin days matter: the clocks
 * went forward on Sunday 2025-03-30 (CET +1 → CEST +2), and several orders sit minutes around
 * midnight, month and year boundaries.
 */
const A = '200001';
const B = '200002';
const orders = [
  // o1 Berlin 2025-03-30 00:30 (Sunday), confirmed 47 h after sending → within 48 h
  {
    n: 'D1',
    s: A,
    placed: '2025-03-29T23:30:00Z',
    net: 100,
    status: 4,
    sent: '2025-03-30T00:00:00Z',
    conf: '2025-03-31T23:00:00Z',
  },
  // o2 Berlin 2025-03-31 00:30 CEST (Monday, next ISO week), confirmed after 49 h → missed
  {
    n: 'D2',
    s: A,
    placed: '2025-03-30T22:30:00Z',
    net: 200,
    status: 4,
    sent: '2025-03-30T22:30:00Z',
    conf: '2025-04-01T23:30:00Z',
  },
  // o3 Berlin 2025-03-30 23:59, sent but not confirmed
  { n: 'D3', s: B, placed: '2025-03-30T21:59:00Z', net: 50, status: 2, sent: '2025-03-30T22:00:00Z', conf: null },
  // o4 Berlin 2025-03-31 23:30, confirmed with changes exactly 48 h after sending → within
  {
    n: 'D4',
    s: B,
    placed: '2025-03-31T21:30:00Z',
    net: 150.5,
    status: 5,
    sent: '2025-03-31T21:30:00Z',
    conf: '2025-04-02T21:30:00Z',
  },
  // o5 Berlin 2025-03-01 00:30 (March, week of 24 Feb), created only
  { n: 'D5', s: A, placed: '2025-02-28T23:30:00Z', net: 80, status: 1, sent: null, conf: null },
  // o6 Berlin 2025-02-28 23:30 (February), sending failed
  { n: 'D6', s: A, placed: '2025-02-28T22:30:00Z', net: 20, status: 3, sent: null, conf: null },
  // o7 Berlin 2025-01-01 00:30 (year 2025), sent then cancelled
  { n: 'D7', s: A, placed: '2024-12-31T23:30:00Z', net: 10, status: 6, sent: '2025-01-01T08:00:00Z', conf: null },
  // a test order of a supplier in communication test: never counted
  {
    n: 'D8',
    s: A,
    placed: '2025-03-30T10:00:00Z',
    net: 999,
    status: 4,
    sent: '2025-03-30T10:00:00Z',
    conf: '2025-03-30T11:00:00Z',
    test: true,
  },
];

let t: TestApp;
const sql = (text: string, params: unknown[] = []) => t.pool.query(text, params);
const admin = 'admin@example.com';
const get = (path: string, q: Record<string, string | number>, as = admin) =>
  t.request('GET', `/v1/Dashboard/${path}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, {
    as,
  });
const q1 = { StartDate: '2025-01-01', EndDate: '2025-03-31' };
/** The pre-aggregated tables the figures read. */
const rollupTables = ['supplier_order_daily', 'supplier_order_monthly'];

beforeAll(async () => {
  t = await startTestApp();
  await sql('DELETE FROM supplier_orders');
  const { rows } = await sql(
    `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address)
     VALUES ('DASH-1', '100001', '00000000-0000-4000-8000-000000000001', 0, 0, '{}') RETURNING id`,
  );
  for (const o of orders)
    await sql(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id,
         net_value, delivery_cost, placed_at, sent_at, confirmed_at, is_test)
       VALUES ($1, $2, $3, '100001', $4, $5, 0, $6, $7, $8, $9)`,
      [o.n, rows[0].id, o.s, o.status, o.net, o.placed, o.sent, o.conf, o.test ?? false],
    );
}, 120_000);
afterAll(async () => t?.close());

describe('dashboard figures on the fixed data set', () => {
  it('totals for all suppliers', async () => {
    const [count, sum, avg, sla] = await Promise.all(
      ['SupplierOrdersCount', 'SupplierOrdersSumNetValue', 'SupplierOrdersAvgNetValue', 'SupplierOrdersSla'].map((p) =>
        get(p, { ...q1, Grouping: 'month' }),
      ),
    );
    expect(count.status).toBe(200);
    expect(count.body.total).toBe(7);
    expect(sum.body.total).toBe(610.5);
    expect(avg.body.total).toBe(87.21);
    // reached: o1 o2 o3 o4 o7; confirmed within 48 h: o1 o4
    expect(sla.body.total).toBe(40);
    expect(sla.body.slaWindowHours).toBe(48);
    expect(count.body.series).toEqual([
      { period: '2025-01-01', value: 1 },
      { period: '2025-02-01', value: 1 },
      { period: '2025-03-01', value: 5 },
    ]);
    expect(sum.body.series.map((p: any) => p.value)).toEqual([10, 20, 580.5]);
    expect(avg.body.series.map((p: any) => p.value)).toEqual([10, 20, 116.1]);
    // February: only a failed order, nothing reached the supplier → undefined
    expect(sla.body.series.map((p: any) => p.value)).toEqual([0, null, 50]);
  });

  it('weeks start on Monday in Berlin time across the DST change', async () => {
    const r = await get('SupplierOrdersCount', { StartDate: '2025-02-24', EndDate: '2025-04-06', Grouping: 'week' });
    expect(r.body.series).toEqual([
      { period: '2025-02-24', value: 2 },
      { period: '2025-03-03', value: 0 },
      { period: '2025-03-10', value: 0 },
      { period: '2025-03-17', value: 0 },
      { period: '2025-03-24', value: 2 },
      { period: '2025-03-31', value: 2 },
    ]);
  });

  it('days and years', async () => {
    const days = await get('SupplierOrdersSumNetValue', {
      StartDate: '2025-03-29',
      EndDate: '2025-03-31',
      Grouping: 'day',
    });
    expect(days.body.series).toEqual([
      { period: '2025-03-29', value: 0 },
      { period: '2025-03-30', value: 150 },
      { period: '2025-03-31', value: 350.5 },
    ]);
    const years = await get('SupplierOrdersCount', {
      StartDate: '2024-06-01',
      EndDate: '2025-03-31',
      Grouping: 'year',
    });
    expect(years.body.series).toEqual([
      { period: '2024-01-01', value: 0 },
      { period: '2025-01-01', value: 7 },
    ]);
  });

  it('ranges with partial months: whole months from the monthly rollup, the edges day by day', async () => {
    const r = await get('SupplierOrdersCount', { StartDate: '2025-02-15', EndDate: '2025-03-31', Grouping: 'month' });
    expect(r.body.total).toBe(6); // o6 (28 Feb) + March o1 o2 o3 o4 o5
    expect(r.body.series).toEqual([
      { period: '2025-02-01', value: 1 },
      { period: '2025-03-01', value: 5 },
    ]);
    expect(r.body.previousTotal).toBe(1); // 1 Jan – 14 Feb: o7
    const edge = await get('SupplierOrdersSumNetValue', {
      StartDate: '2025-03-01',
      EndDate: '2025-03-30',
      Grouping: 'year',
    });
    expect(edge.body.total).toBe(230); // o5 80 + o1 100 + o3 50; o2 and o4 are on 31 March
    expect((await get('TopSuppliers', { StartDate: '2025-02-15', EndDate: '2025-03-31' })).body.items).toEqual([
      expect.objectContaining({ bpNumber: A, count: 4, netSum: 400 }),
      expect.objectContaining({ bpNumber: B, count: 2, netSum: 200.5 }),
    ]);
  });

  it('previous period of the same length', async () => {
    const r = await get('SupplierOrdersCount', { StartDate: '2025-03-31', EndDate: '2025-03-31', Grouping: 'day' });
    expect(r.body.total).toBe(2);
    expect(r.body.previousTotal).toBe(2); // 2025-03-30: o1 o3
    const avg = await get('SupplierOrdersAvgNetValue', {
      StartDate: '2025-03-30',
      EndDate: '2025-03-31',
      Grouping: 'day',
    });
    expect(avg.body.previousTotal).toBeNull(); // 28–29 March: no orders
  });

  it('one supplier and a status filter', async () => {
    const base = { ...q1, Grouping: 'month', SupplierBpNumber: A };
    expect((await get('SupplierOrdersCountBySeller', base)).body.total).toBe(5);
    expect((await get('SupplierOrdersSumNetValueBySeller', base)).body.total).toBe(410);
    expect((await get('SupplierOrdersAvgNetValueBySeller', base)).body.total).toBe(82);
    expect((await get('SupplierOrdersSlaBySeller', base)).body.total).toBe(33.33); // o1 of o1 o2 o7
    expect((await get('SupplierOrdersCount', { ...q1, StatusId: 4 })).body.total).toBe(2);
    expect((await get('SupplierOrdersSla', { ...q1, StatusId: 4 })).body.total).toBe(50);
    const unknown = await get('SupplierOrdersCountBySeller', { ...base, SupplierBpNumber: '999999' });
    expect(unknown.status).toBe(404);
  });

  it('top suppliers by net value with their SLA', async () => {
    const r = await get('TopSuppliers', q1);
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => [i.bpNumber, i.count, i.netSum, i.sla])).toEqual([
      [A, 5, 410, 33.33],
      [B, 2, 200.5, 50],
    ]);
  });

  it('stays exact after confirmations, new orders and a changed window', async () => {
    await sql(
      `UPDATE supplier_orders SET status_id = 4, confirmed_at = sent_at + interval '10 hours' WHERE supplier_order_number = 'D3'`,
    );
    expect((await get('SupplierOrdersSla', q1)).body.total).toBe(60);
    const { rows } = await sql('SELECT customer_order_id FROM supplier_orders LIMIT 1');
    await sql(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id, net_value, delivery_cost, placed_at)
       VALUES ('D9', $1, $2, '100001', 1, 39.5, 0, '2025-03-15T12:00:00Z')`,
      [rows[0].customer_order_id, B],
    );
    expect((await get('SupplierOrdersCount', q1)).body.total).toBe(8);
    expect((await get('SupplierOrdersSumNetValue', q1)).body.total).toBe(650);
    await sql(`DELETE FROM supplier_orders WHERE supplier_order_number = 'D9'`);
    expect((await get('SupplierOrdersCount', q1)).body.total).toBe(7);

    // window 5 h: nobody; 10 h: o3 only (of 5 reached)
    await sql(`DELETE FROM custom_parameter_values WHERE key = 'SupplierOrderConfirmationWindowHours'`);
    await sql(`INSERT INTO custom_parameter_values (key, value) VALUES ('SupplierOrderConfirmationWindowHours', '5')`);
    const five = await get('SupplierOrdersSla', q1);
    expect([five.body.total, five.body.slaWindowHours]).toEqual([0, 5]);
    await sql(`UPDATE custom_parameter_values SET value = '10' WHERE key = 'SupplierOrderConfirmationWindowHours'`);
    expect((await get('SupplierOrdersSla', q1)).body.total).toBe(20);
    const { rows: check } = await sql(
      `SELECT sum(sla_met_count)::int AS met FROM supplier_order_daily WHERE day BETWEEN '2025-01-01' AND '2025-03-31'`,
    );
    expect(check[0].met).toBe(1);
    // The monthly rollup equals the daily one summed per month after all these changes.
    const { rows: drift } = await sql(
      `SELECT * FROM (SELECT date_trunc('month', day)::date AS month, supplier_bp_number, status_id, sum(order_count) AS c,
                             sum(net_sum) AS s, sum(reached_count) AS r, sum(sla_met_count) AS m
                        FROM supplier_order_daily GROUP BY 1, 2, 3) d
         FULL JOIN (SELECT month, supplier_bp_number, status_id, sum(order_count) AS c, sum(net_sum) AS s,
                           sum(reached_count) AS r, sum(sla_met_count) AS m
                      FROM supplier_order_monthly GROUP BY 1, 2, 3) mo USING (month, supplier_bp_number, status_id)
        WHERE (d.c, d.s, d.r, d.m) IS DISTINCT FROM (mo.c, mo.s, mo.r, mo.m)`,
    );
    expect(drift).toEqual([]);
  });
});

describe('rollup under concurrent orders (migration 0185)', () => {
  it('two open transactions add orders of one supplier and day without waiting for each other; commit counts, rollback not', async () => {
    const { rows } = await sql('SELECT customer_order_id FROM supplier_orders LIMIT 1');
    const day = `SELECT coalesce(sum(order_count), 0)::int AS c, coalesce(sum(net_sum), 0)::float AS s FROM supplier_order_daily
                  WHERE day = '2025-03-20' AND supplier_bp_number = $1 AND status_id = 1`;
    const month = `SELECT coalesce(sum(order_count), 0)::int AS c FROM supplier_order_monthly
                    WHERE month = '2025-03-01' AND supplier_bp_number = $1 AND status_id = 1`;
    const before = { day: (await sql(day, [B])).rows[0], month: (await sql(month, [B])).rows[0] };
    const insert = (client: { query: typeof t.pool.query }, n: string, net: number) =>
      client.query(
        `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id, net_value, delivery_cost, placed_at)
         VALUES ($1, $2, $3, '100001', 1, $4, 0, '2025-03-20T10:00:00Z')`,
        [n, rows[0].customer_order_id, B, net],
      );
    const first = await t.pool.connect();
    const second = await t.pool.connect();
    const third = await t.pool.connect();
    try {
      await first.query('BEGIN');
      await insert(first, 'C1', 10);
      // Before 0185 the first transaction held the lock of the rollup row (2025-03-20, B, 1) until its commit:
      // this insert waited for it and ran into the lock timeout.
      await second.query('BEGIN');
      await second.query(`SET LOCAL lock_timeout = '2s'`);
      await insert(second, 'C2', 20.5);
      await third.query('BEGIN');
      await insert(third, 'C3', 1000);
      await second.query('COMMIT');
      await third.query('ROLLBACK');
      await first.query('COMMIT');
    } finally {
      first.release();
      second.release();
      third.release();
    }
    expect((await sql(day, [B])).rows[0]).toEqual({ c: before.day.c + 2, s: before.day.s + 30.5 });
    expect((await sql(month, [B])).rows[0].c).toBe(before.month.c + 2);
    expect((await sql('SELECT count(*)::int AS n FROM supplier_order_rollup_pending')).rows[0].n).toBe(0);
    await sql(`DELETE FROM supplier_orders WHERE supplier_order_number IN ('C1', 'C2')`);
    expect((await sql(day, [B])).rows[0]).toEqual(before.day);
  });
});

describe('rollup slots (migration 0540)', () => {
  it('two transactions adding to one supplier, day and status do not wait for each other when their roll-up is applied', async () => {
    const { rows } = await sql('SELECT customer_order_id FROM supplier_orders LIMIT 1');
    const day = `SELECT coalesce(sum(order_count), 0)::int AS c FROM supplier_order_daily
                  WHERE day = '2025-03-21' AND supplier_bp_number = $1 AND status_id = 1`;
    const before = (await sql(day, [B])).rows[0].c;
    const insert = (client: { query: typeof t.pool.query }, n: string) =>
      client.query(
        `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id, net_value, delivery_cost, placed_at)
         VALUES ($1, $2, $3, '100001', 1, 1, 0, '2025-03-21T10:00:00Z')`,
        [n, rows[0].customer_order_id, B],
      );
    const first = await t.pool.connect();
    const second = await t.pool.connect();
    try {
      await first.query('BEGIN');
      await insert(first, 'S1');
      // The deferred roll-up runs now instead of at COMMIT: the first transaction holds the row it wrote until it ends.
      await first.query('SET CONSTRAINTS ALL IMMEDIATE');
      const slotOf = async (client: { query: typeof t.pool.query }) =>
        (await client.query(`SELECT (pg_current_xact_id()::text::bigint % 16)::int AS slot`)).rows[0].slot as number;
      const firstSlot = await slotOf(first);
      // Transactions running at the same time have neighbouring ids; should another process's transactions have
      // taken the ids up to the next of the same slot meanwhile, the next transaction id is taken.
      for (;;) {
        await second.query('BEGIN');
        if ((await slotOf(second)) !== firstSlot) break;
        await second.query('ROLLBACK');
      }
      await second.query(`SET LOCAL lock_timeout = '2s'`);
      await insert(second, 'S2');
      // One row per key (before 0540): this waited for the first transaction's row and ran into the lock timeout.
      await second.query('SET CONSTRAINTS ALL IMMEDIATE');
      await second.query('COMMIT');
      await first.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }
    expect((await sql(day, [B])).rows[0].c).toBe(before + 2);
    const { rows: slots } = await sql(
      `SELECT count(*)::int AS n FROM supplier_order_daily WHERE day = '2025-03-21' AND supplier_bp_number = $1 AND status_id = 1`,
      [B],
    );
    expect(slots[0].n).toBe(2);
    await sql(`DELETE FROM supplier_orders WHERE supplier_order_number IN ('S1', 'S2')`);
    expect((await sql(day, [B])).rows[0].c).toBe(before);
  });
});

describe('roll-up written once per transaction (migration 0675)', () => {
  const suppliers = ['200001', '200002', '200003', '200004', '200005'];
  /** The roll-up of 2025-03-22 per supplier (daily and monthly rows of the month, status 'new') and the direct count. */
  const figures = async () =>
    (
      await sql(
        `SELECT s.bp AS supplier,
                (SELECT coalesce(sum(order_count), 0)::int FROM supplier_order_daily
                  WHERE day = '2025-03-22' AND supplier_bp_number = s.bp AND status_id = 1) AS day,
                (SELECT coalesce(sum(net_sum), 0)::float FROM supplier_order_daily
                  WHERE day = '2025-03-22' AND supplier_bp_number = s.bp AND status_id = 1) AS day_net,
                (SELECT coalesce(sum(order_count), 0)::int FROM supplier_order_daily
                  WHERE date_trunc('month', day) = '2025-03-01' AND supplier_bp_number = s.bp AND status_id = 1) AS days_of_month,
                (SELECT coalesce(sum(order_count), 0)::int FROM supplier_order_monthly
                  WHERE month = '2025-03-01' AND supplier_bp_number = s.bp AND status_id = 1) AS month,
                (SELECT count(*)::int FROM supplier_orders WHERE NOT is_test AND status_id = 1 AND supplier_bp_number = s.bp
                    AND supplier_order_rollup_key_day(placed_at) = '2025-03-22') AS direct
           FROM unnest($1::text[]) AS s(bp) ORDER BY 1`,
        [suppliers],
      )
    ).rows;
  /** One statement with an order at each of the five suppliers, as a checkout writes them. */
  const insertFive = (client: { query: typeof t.pool.query }, prefix: string) =>
    client.query(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id, net_value, delivery_cost, placed_at)
       SELECT $1 || s.bp, (SELECT customer_order_id FROM supplier_orders LIMIT 1), s.bp, '100001', 1, 12.5, 0, '2025-03-22T10:00:00Z'
         FROM unnest($2::text[]) AS s(bp)`,
      [prefix, suppliers],
    );
  const queuedFlushes = (client: { query: typeof t.pool.query }) =>
    client
      .query(
        `SELECT count(*) FILTER (WHERE flush_due)::int AS due, count(*)::int AS pending FROM supplier_order_rollup_pending
          WHERE xid = pg_current_xact_id()`,
      )
      .then((r) => r.rows[0]);

  it('a transaction with orders at five suppliers queues one flush, and daily and monthly figures are exact after it', async () => {
    const before = await figures();
    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await insertFive(client, 'F1-');
      // Five pending keys, one flush event: before 0675 each of the five rows queued the flush.
      expect(await queuedFlushes(client)).toEqual({ due: 1, pending: 5 });
      // A second statement of the same transaction adds to the keys without queueing another flush.
      await insertFive(client, 'F2-');
      expect(await queuedFlushes(client)).toEqual({ due: 1, pending: 5 });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const after = await figures();
    for (const [i, row] of after.entries()) {
      expect(row.day).toBe(before[i].day + 2);
      expect(row.day_net).toBe(before[i].day_net + 25);
      expect(row.day).toBe(row.direct);
      expect(row.month).toBe(row.days_of_month);
    }
    expect((await sql('SELECT count(*)::int AS n FROM supplier_order_rollup_pending')).rows[0].n).toBe(0);
  });

  it('deltas after an early flush (SET CONSTRAINTS … IMMEDIATE) and after a rolled-back savepoint are still applied exactly once', async () => {
    const before = await figures();
    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await insertFive(client, 'G1-');
      await client.query('SET CONSTRAINTS supplier_order_rollup_at_commit IMMEDIATE');
      expect(await queuedFlushes(client)).toEqual({ due: 0, pending: 0 });
      await client.query('SET CONSTRAINTS supplier_order_rollup_at_commit DEFERRED');
      // The pending set was emptied by the flush: the next statement queues a new one.
      await client.query('SAVEPOINT s');
      await insertFive(client, 'G2-');
      expect(await queuedFlushes(client)).toEqual({ due: 1, pending: 5 });
      await client.query('ROLLBACK TO SAVEPOINT s');
      // The savepoint's rows and its flush event are gone together; the next statement queues the flush again.
      expect(await queuedFlushes(client)).toEqual({ due: 0, pending: 0 });
      await insertFive(client, 'G3-');
      await client.query(`UPDATE supplier_orders SET net_value = 20 WHERE supplier_order_number = 'G3-200001'`);
      expect(await queuedFlushes(client)).toEqual({ due: 1, pending: 5 });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const after = await figures();
    for (const [i, row] of after.entries()) {
      expect(row.day).toBe(before[i].day + 2);
      expect(row.day_net).toBe(before[i].day_net + (row.supplier === '200001' ? 32.5 : 25));
      expect(row.day).toBe(row.direct);
      expect(row.month).toBe(row.days_of_month);
    }
    await sql(`DELETE FROM supplier_orders WHERE supplier_order_number ~ '^[FG][0-9]-'`);
    const cleared = await figures();
    for (const row of cleared) {
      expect(row.day).toBe(row.direct);
      expect(row.month).toBe(row.days_of_month);
    }
    expect((await sql('SELECT count(*)::int AS n FROM supplier_order_rollup_pending')).rows[0].n).toBe(0);
  });
});

describe('dashboard date rules and access', () => {
  it('rejects a start before 2024-01-01 and a start after the end with German messages', async () => {
    const early = await get('SupplierOrdersCount', { StartDate: '2023-12-31', EndDate: '2024-02-01' });
    expect(early.status).toBe(400);
    expect(early.body.errors).toEqual([
      expect.objectContaining({ message: 'Das Datum darf nicht vor dem 01.01.2024 liegen.' }),
    ]);
    const reversed = await get('SupplierOrdersCount', { StartDate: '2025-02-01', EndDate: '2025-01-01' });
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body.errors)).toContain('Das Startdatum darf nicht nach dem Enddatum liegen.');
    const bad = await get('SupplierOrdersCount', { StartDate: 'gestern', EndDate: '2025-01-01' });
    expect(bad.status).toBe(400);
    const grouping = await get('SupplierOrdersCount', { ...q1, Grouping: 'quarter' });
    expect(grouping.status).toBe(400);
  });

  it('is for staff only', async () => {
    expect((await get('SupplierOrdersCount', q1, 'einkauf@example.com')).status).toBe(403);
    expect((await get('SupplierOrdersCount', q1, 'verkauf@example.com')).status).toBe(403);
    expect((await get('SupplierOrdersCount', q1, 'support@example.com')).status).toBe(200);
    expect((await get('SupplierOrdersCount', q1, 'betrieb@example.com')).status).toBe(200);
  });
});

describe('cancelled requests', () => {
  /**
   * The SPA aborts the previous request on every filter change. To hold a query running for as long as
   * the test needs (independent of data size and machine speed), a second session locks the rollup
   * tables; the dashboard's SELECT then waits on that lock until it is cancelled or the lock goes away.
   * The lock is held until the end, so the query can only have stopped because it was cancelled.
   */
  it('an aborted dashboard request cancels its database query', async () => {
    const locker = await t.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${rollupTables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
      const controller = new AbortController();
      const token = await t.token(admin);
      const request = fetch(
        `${t.baseUrl}/v1/Dashboard/SupplierOrdersSumNetValue?StartDate=2024-01-01&EndDate=2025-12-31&Grouping=month`,
        { headers: { authorization: `Bearer ${token}` }, signal: controller.signal },
      ).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      const waiting = () =>
        sql(
          `SELECT a.pid FROM pg_stat_activity a
            WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.state = 'active'
              AND a.wait_event_type = 'Lock' AND a.query ILIKE '%supplier_order_%'`,
        ).then((r) => r.rows.map((row) => row.pid as number));
      const [pid] = await eventually(async () => {
        const pids = await waiting();
        return pids.length ? pids : null;
      });
      controller.abort();
      expect(await request).toBe('AbortError');
      // The backend stops waiting although the lock is still held: its statement was cancelled.
      await eventually(async () => (await waiting()).length === 0);
      // The connection is idle again (or it is the one this check itself runs on, back in the pool).
      const { rows } = await sql('SELECT state FROM pg_stat_activity WHERE pid = $1 AND pid <> pg_backend_pid()', [
        pid,
      ]);
      expect(rows.filter((r) => r.state === 'active')).toEqual([]);
      const { rows: locks } = await sql(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = ANY($1::regclass[])`,
        [rollupTables],
      );
      expect(locks[0].n).toBe(0);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    // The connection went back to the pool in a usable state.
    expect((await get('SupplierOrdersCount', q1)).body.total).toBe(7);
  });
});
