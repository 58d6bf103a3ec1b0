// The order lists' filters and paging (SQL built with SqlWhere: every value, LIMIT and OFFSET as parameters).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
const STAFF = 'betrieb@example.com';
const BUYER = 'einkauf@example.com';
let buyerName: string;

async function order(number: string, bp: string, placedAt: string, supplier: string) {
  const { rows } = await t.pool.query(
    `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, total_net, delivery_cost_total, customer_address, placed_at)
     VALUES ($1, $2, '00000000-0000-4000-8000-000000000001', 10, 0, '{}', $3) RETURNING id`,
    [number, bp, placedAt],
  );
  await t.pool.query(
    `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, status_id,
       net_value, delivery_cost, placed_at)
     VALUES ($1, $2, $3, $4, 1, 10, 0, $5)`,
    [`${number}-1`, rows[0].id, supplier, bp, placedAt],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  await order('LIST-1', '100001', '2025-03-01T10:00:00Z', '200001');
  await order('LIST-2', '100001', '2025-04-01T10:00:00Z', '200002');
  await order('LIST-3', '100001', '2024-05-01T10:00:00Z', '200001');
  await order('LIST-4', '100003', '2025-06-01T10:00:00Z', '200001');
  buyerName = (await t.pool.query(`SELECT name FROM business_partners WHERE bp_number = '100001'`)).rows[0].name;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('order lists', () => {
  it('staff filter customer orders by buyer and year and page through them', async () => {
    const query = `BuyerName=${encodeURIComponent(buyerName)}&Year=2025&PageSize=1`;
    const first = (await t.request('GET', `/v1/PlatformOperator/CustomerOrders?${query}&Page=1`, { as: STAFF })).body;
    const second = (await t.request('GET', `/v1/PlatformOperator/CustomerOrders?${query}&Page=2`, { as: STAFF })).body;
    expect([first.totalCount, first.totalPages, second.totalCount]).toEqual([2, 2, 2]);
    expect([...first.items, ...second.items].map((o: any) => o.orderNumber)).toEqual(['LIST-2', 'LIST-1']);
    const past = (await t.request('GET', `/v1/PlatformOperator/CustomerOrders?${query}&Page=3`, { as: STAFF })).body;
    expect(past).toMatchObject({ totalCount: 2, items: [] });
  });

  it("a buyer sees its own partner's orders of a year; the years offered come from all of them", async () => {
    const list = (await t.request('GET', '/v1/CustomerOrders?Year=2024', { as: BUYER })).body;
    expect(list.items.map((o: any) => o.orderNumber)).toEqual(['LIST-3']);
    expect(list.availableOrderYears).toEqual(expect.arrayContaining([2025, 2024]));
  });

  it('staff filter supplier orders by supplier and year and page through them', async () => {
    const query = 'SupplierId=200001&Year=2025&PageSize=1';
    const first = (await t.request('GET', `/v1/PlatformOperator/SupplierOrders?${query}&Page=1`, { as: STAFF })).body;
    const second = (await t.request('GET', `/v1/PlatformOperator/SupplierOrders?${query}&Page=2`, { as: STAFF })).body;
    expect(first.totalCount).toBe(2);
    expect([...first.items, ...second.items].map((o: any) => o.orderNumber)).toEqual(['LIST-4-1', 'LIST-1-1']);
  });
});
