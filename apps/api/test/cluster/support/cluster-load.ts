/** Mixed buyer load through the cluster's haproxy, shared by the cluster test and `npm run bench:load`. */
import { randomBytes } from 'node:crypto';
import { loginWithCodeFlow } from '../../support/oidc-login.ts';
import type { Cluster } from './cluster.ts';

export const BUYER = 'einkauf@example.com';

export async function call(base: string, token: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed };
}

/** An orderable offer of the demo buyer (priced, from a supplier the buyer is approved at). */
export async function orderableOffers(cluster: Cluster): Promise<{ id: string; moq: number }[]> {
  const { rows } = await cluster.pool.query<{ id: string; moq: number }>(
    `SELECT o.product_instance_id AS id, greatest(coalesce(o.min_order_quantity, 1), 1)::int AS moq
       FROM product_offers o
       JOIN supplier_customers sc ON sc.supplier_bp_number = o.supplier_bp_number AND sc.relation_status_id = 1
       JOIN user_business_partners ubp ON ubp.bp_number = sc.buyer_bp_number
       JOIN users u ON u.id = ubp.user_id AND u.email = $1
      WHERE o.net_price > 0 AND EXISTS (SELECT 1 FROM units x WHERE x.code = o.unit_code)
      ORDER BY o.product_instance_id LIMIT 200`,
    [BUYER],
  );
  return rows;
}

export interface LoadResult {
  requests: number;
  failures: { at: number; what: string }[];
  ordersSeen: string[];
}

const TERMS = ['Thermostat', 'Rohr', 'Ventil', 'Pressfitting', 'Heizkörper', 'Kugelhahn'];

/**
 * Mixed buyer load through haproxy for `ms` (search, product page, cart, checkout every 3rd round) by `users` clients;
 * `during` is called every 250 ms with the elapsed time (it may kill or restart nodes).
 */
export async function runLoad(
  cluster: Cluster,
  ms: number,
  during: (elapsed: number) => Promise<void>,
  users = 6,
): Promise<LoadResult> {
  const { access_token: token } = await loginWithCodeFlow(cluster.url, BUYER);
  const offers = await orderableOffers(cluster);
  const result: LoadResult = { requests: 0, failures: [], ordersSeen: [] };
  const started = Date.now();
  const deadline = started + ms;
  const request = async (what: string, method: string, url: string, body?: unknown) => {
    result.requests++;
    try {
      const res = await call(cluster.url, token, method, url, body);
      if (res.status >= 300)
        result.failures.push({
          at: Date.now(),
          what: `${what} ${res.status} ${JSON.stringify(res.body?.detail ?? res.body?.title ?? res.body).slice(0, 160)}`,
        });
      return res.status < 300 ? res.body : null;
    } catch (error) {
      result.failures.push({ at: Date.now(), what: `${what} ${(error as Error).message}` });
      return null;
    }
  };
  // A buyer may keep 10 carts: start from none, and each client orders from one cart of its own again and again
  // (a checkout takes the ordered lines out of it).
  const existing = await call(cluster.url, token, 'GET', '/v1/MultiCarts');
  const carts = (Array.isArray(existing.body) ? existing.body : (existing.body?.items ?? [])) as { id: number }[];
  for (const cart of carts) await call(cluster.url, token, 'DELETE', `/v1/MultiCarts/${cart.id}`);
  const user = async (n: number) => {
    let cart: { id: number } | null = null;
    for (let round = 1; Date.now() < deadline; round++) {
      await request('search', 'POST', '/v1/Product/Search', {
        searchTerm: TERMS[round % TERMS.length],
        page: 1,
        pageSize: 20,
      });
      const offer = offers[(n * 31 + round) % offers.length];
      await request('detail', 'GET', `/v1/Product/Details?productInstanceId=${encodeURIComponent(offer.id)}`);
      if (!cart) {
        cart = await request('cart', 'POST', '/v1/MultiCarts', { name: `Last ${n} ${randomBytes(3).toString('hex')}` });
        continue;
      }
      await request('add', 'POST', '/v1/CartItems', {
        cartId: cart.id,
        productInstanceId: offer.id,
        quantity: offer.moq,
      });
      if (round % 3 === 0) {
        const order = await request('checkout', 'POST', `/v1/MultiCarts/${cart.id}/checkout`);
        if (order?.customerOrderNumber) result.ordersSeen.push(order.customerOrderNumber);
      }
    }
  };
  let driving = true;
  const driver = (async () => {
    while (driving) {
      await during(Date.now() - started);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.all(Array.from({ length: users }, (_, n) => user(n)));
  driving = false;
  await driver;
  return result;
}

export { Browser } from '../../support/oidc-browser.ts';
