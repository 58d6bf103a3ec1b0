/** Mixed buyer load through the cluster's haproxy, shared by the cluster test and `npm run bench:load`. */
import { createHash, randomBytes } from 'node:crypto';
import { CookieJar } from '../../support/oidc-login.ts';
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

/** The embedded provider as a browser uses it: one cookie jar, manual redirects (sign-in and sign-out). */
export class Browser {
  readonly jar = new CookieJar();
  constructor(readonly base: string) {}
  async go(url: string, init: RequestInit = {}) {
    const response = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.jar.header() },
    });
    this.jar.store(response);
    return response;
  }
  post(url: string, fields: Record<string, string>) {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
  async signIn(email: string, password = 'demo') {
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL('/auth/auth', this.base);
    authorize.search = new URLSearchParams({
      client_id: 'shk-portal-web',
      response_type: 'code',
      redirect_uri: `${this.base}/auth-callback`,
      scope: 'openid profile email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'x',
      prompt: 'login',
    }).toString();
    const start = await this.go(authorize.toString());
    const page = await this.go(start.headers.get('location')!);
    const action = (await page.text()).match(/action="([^"]+)"/)![1];
    let response = await this.post(action, { login: email, password });
    let location = response.headers.get('location');
    while (location && !location.startsWith(`${this.base}/auth-callback`)) {
      response = await this.go(location);
      location = response.headers.get('location');
    }
    const code = new URL(location!).searchParams.get('code')!;
    const tokens = await fetch(`${this.base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${this.base}/auth-callback`,
        client_id: 'shk-portal-web',
        code_verifier: verifier,
      }).toString(),
    });
    return (await tokens.json()) as { access_token: string; id_token: string };
  }
  /** Signs out through the provider's end-session page, as the portal's logout does. */
  async signOut(idToken: string) {
    const end = new URL('/auth/session/end', this.base);
    end.search = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: `${this.base}/` }).toString();
    const html = await (await this.go(end.toString())).text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)![1];
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    return (await this.post(action, fields)).status;
  }
}
