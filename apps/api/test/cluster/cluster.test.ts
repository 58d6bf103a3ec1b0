/**
 * Several nodes on one PostgreSQL server behind haproxy (support/cluster.ts): identity, shared state, a node killed
 * under load, a rolling restart. Run with `npm run test:cluster` (vitest.cluster.config.ts), not by the API suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, loginWithCodeFlow } from '../support/oidc-login.ts';
import { clusterUnavailable, startCluster, type Cluster, type ClusterNode } from './support/cluster.ts';
import { BUYER, Browser, call, orderableOffers, runLoad } from './support/cluster-load.ts';

const unavailable = clusterUnavailable();
if (unavailable) console.warn(`[test:cluster] ${unavailable}`);

// The file storage seam with a PostgreSQL backend comes with STORAGE_BACKEND (config.ts); until it exists, the two
// tests that need files shared between nodes are skipped.
const storageBackendExists = fs
  .readFileSync(path.resolve(import.meta.dirname, '../../src/config.ts'), 'utf8')
  .includes('STORAGE_BACKEND');
if (!storageBackendExists)
  console.warn('[test:cluster] STORAGE_BACKEND fehlt in config.ts – Datei- und Importtests über Knoten übersprungen.');

let cluster: Cluster;
let a: ClusterNode;
let b: ClusterNode;

beforeAll(async () => {
  if (unavailable) return;
  cluster = await startCluster({
    nodes: 2,
    env: storageBackendExists ? { STORAGE_BACKEND: 'postgres' } : {},
  });
  [a, b] = cluster.nodes;
}, 300_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

/** The login form of a fresh interaction, begun through haproxy: its action path and cookies. */
async function loginForm(): Promise<{ action: string; jar: CookieJar }> {
  const jar = new CookieJar();
  const authorize = new URL(`${cluster.url}/auth/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'shk-portal-web',
    response_type: 'code',
    redirect_uri: `${cluster.url}/auth-callback`,
    scope: 'openid profile email offline_access',
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'x',
    prompt: 'login',
  }).toString();
  let response = await fetch(authorize, { redirect: 'manual' });
  jar.store(response);
  const interaction = new URL(response.headers.get('location')!, cluster.url);
  response = await fetch(interaction, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(response);
  const action = (await response.text()).match(/action="([^"]+)"/)![1];
  return { action, jar };
}

describe.skipIf(Boolean(unavailable))('two nodes on one PostgreSQL behind haproxy', () => {
  it('signs in through haproxy (steps on either node); the token works on node A and on node B', async () => {
    // Round robin sends the authorize, interaction, login and token steps to alternating nodes.
    for (let round = 0; round < 2; round++) {
      const { access_token: token } = await loginWithCodeFlow(cluster.url, BUYER);
      for (const node of [a, b]) {
        const res = await call(node.url, token, 'GET', '/v1/UserProfile');
        expect(res.status, `node ${node.name}`).toBe(200);
        expect(res.body.email).toBe(BUYER);
      }
    }
  });

  it('a sign-out through haproxy ends the token on every node', async () => {
    const browser = new Browser(cluster.url);
    const tokens = await browser.signIn(BUYER);
    for (const node of [a, b])
      expect((await call(node.url, tokens.access_token, 'GET', '/v1/UserProfile')).status).toBe(200);
    expect(await browser.signOut(tokens.id_token)).toBeLessThan(400);
    // The other node's caller cache learns of the ended grant by NOTIFY auth_changes (milliseconds after the commit;
    // a request racing the notification may still pass): refused on both within a second.
    const signedOut = Date.now();
    for (const node of [a, b]) {
      await waitUntil(
        async () => (await call(node.url, tokens.access_token, 'GET', '/v1/UserProfile')).status === 401,
        1_000,
        25,
      );
    }
    expect(Date.now() - signedOut).toBeLessThan(1_000);
  });

  it('a cart change on node A shows on node B at once', async () => {
    const { access_token: token } = await loginWithCodeFlow(cluster.url, BUYER);
    const cart = await call(a.url, token, 'POST', '/v1/MultiCarts', {
      name: `Cluster ${randomBytes(3).toString('hex')}`,
    });
    expect(cart.status).toBeLessThan(300);
    // Read on B first, so B's read-model cache holds the empty cart.
    const before = await call(b.url, token, 'GET', `/v1/MultiCarts/${cart.body.id}`);
    expect(before.status).toBe(200);
    const [offer] = await orderableOffers(cluster);
    const added = await call(a.url, token, 'POST', '/v1/CartItems', {
      cartId: cart.body.id,
      productInstanceId: offer.id,
      quantity: offer.moq,
    });
    expect(added.status).toBeLessThan(300);
    const after = await call(b.url, token, 'GET', `/v1/MultiCarts/${cart.body.id}`);
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body)).toContain(offer.id);
  });

  it('five wrong passwords on node A and five on node B lock as ten', async () => {
    const login = `niemand-${randomBytes(4).toString('hex')}@example.com`;
    const statuses: string[] = [];
    for (const node of [a, a, a, a, a, b, b, b, b, b]) {
      const { action, jar } = await loginForm();
      const res = await fetch(`${node.url}${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
        body: new URLSearchParams({ login, password: 'falsch' }).toString(),
      });
      statuses.push(`${node.name}:${res.status}`);
    }
    // Five are free wherever they land; the sixth failure (the first on B) delays the next attempt on any node.
    expect(statuses.slice(0, 6)).toEqual(['a:401', 'a:401', 'a:401', 'a:401', 'a:401', 'b:401']);
    expect(statuses.slice(6)).toContain('b:429');
  });

  it.skipIf(!storageBackendExists)('a file uploaded on node A downloads on node B', async () => {
    const { access_token: token } = await loginWithCodeFlow(cluster.url, BUYER);
    const cart = await call(a.url, token, 'POST', '/v1/MultiCarts', {
      name: `Datei ${randomBytes(3).toString('hex')}`,
    });
    const [offer] = await orderableOffers(cluster);
    const item = await call(a.url, token, 'POST', '/v1/CartItems', {
      cartId: cart.body.id,
      productInstanceId: offer.id,
      quantity: offer.moq,
    });
    expect(item.status, JSON.stringify(item.body)).toBeLessThan(300);
    const itemId = item.body.cartItemId;
    // A CSV (an allowed attachment kind, checked by content) of about 50 KB.
    const content = Buffer.from(
      `Position;Menge;Notiz\r\n${Array.from({ length: 2000 }, (_, i) => `${i + 1};${i % 7};${randomBytes(6).toString('hex')}`).join('\r\n')}\r\n`,
    );
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/csv' }), 'stueckliste.csv');
    const upload = await fetch(`${a.url}/v1/CartItems/${itemId}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const attachments = (await upload.json()) as { id: string }[];
    const attachment = attachments[attachments.length - 1];
    const download = await fetch(`${b.url}/v1/CartItems/${itemId}/attachments/${attachment.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
  });

  it.skipIf(!storageBackendExists)(
    'a catalogue import uploaded on node A is found by search on node B within 2 s',
    async () => {
      const admin = (await loginWithCodeFlow(cluster.url, 'admin@example.com')).access_token;
      const buyer = (await loginWithCodeFlow(cluster.url, BUYER)).access_token;
      const word = `Clusterbogen${randomBytes(3).toString('hex')}`;
      const products = Array.from(
        { length: 20 },
        (_, i) => `<PRODUCT mode="new"><SUPPLIER_PID>CL-${word}-${i}</SUPPLIER_PID><PRODUCT_DETAILS>
<DESCRIPTION_SHORT>${word} ${i} Kupfer</DESCRIPTION_SHORT><MANUFACTURER_PID>CB-${i}</MANUFACTURER_PID>
<MANUFACTURER_NAME>Rohrwerk Cluster</MANUFACTURER_NAME></PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT>
<PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>1</QUANTITY_MIN></PRODUCT_ORDER_DETAILS><PRODUCT_PRICE_DETAILS>
<PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.50</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`,
      );
      const xml = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE>
<CATALOG_ID>CL</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_UPDATE_PRODUCTS>${products.join('')}</T_UPDATE_PRODUCTS></BMECAT>\n`;
      const supplier = '200001';
      const form = new FormData();
      form.append('file', new Blob([xml]), 'cluster.xml');
      const upload = await fetch(`${a.url}/v1/Suppliers/${supplier}/CatalogueImports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
        body: form,
      });
      expect(upload.status).toBe(202);
      const { id } = (await upload.json()) as { id: number };
      await waitUntil(async () => {
        const r = await call(b.url, admin, 'GET', `/v1/Suppliers/${supplier}/CatalogueImports/${id}`);
        if (r.body?.status === 'Failed') throw new Error(JSON.stringify(r.body));
        return r.body?.status === 'Completed';
      }, 90_000);
      const completed = Date.now();
      await waitUntil(async () => {
        const r = await call(b.url, buyer, 'POST', '/v1/Product/Search', { searchTerm: word, page: 1, pageSize: 20 });
        return JSON.stringify(r.body).includes(word);
      }, 5_000);
      expect(Date.now() - completed).toBeLessThanOrEqual(2_000);
    },
  );

  it('SIGTERM to `npm start` (scripts/start.mjs): /ready answers 503 first, a slow request finishes, exit 0', async () => {
    const node = await cluster.extraNode();
    await cluster.start(node, { viaNpmStart: true });
    const { access_token: token } = await loginWithCodeFlow(cluster.url, BUYER);
    // A request in flight when the signal arrives (a search: real work on the node).
    const inFlight = call(node.url, token, 'POST', '/v1/Product/Search', { searchTerm: 'Rohr', page: 1, pageSize: 50 });
    const exit = cluster.stop(node);
    let sawNotReady = false;
    for (let i = 0; i < 20 && !sawNotReady; i++) {
      const ready = await fetch(`${node.url}/ready`).then(
        (r) => r.status,
        () => 0,
      );
      sawNotReady = ready === 503;
      if (!sawNotReady) await new Promise((r) => setTimeout(r, 50));
    }
    expect(sawNotReady).toBe(true);
    // Still answering while not ready (the load balancer's time to notice).
    expect((await call(node.url, token, 'GET', '/v1/UserProfile')).status).toBe(200);
    expect((await inFlight).status).toBe(200);
    expect(await exit).toBe(0);
  });

  it('a node killed with -9 under load: every order seen succeed exists once and is transmitted once', async () => {
    let killedAt = 0;
    const result = await runLoad(cluster, 30_000, async (elapsed) => {
      if (elapsed >= 10_000 && a.process?.exitCode === null && !killedAt) {
        killedAt = Date.now();
        await cluster.kill(a);
      }
    });
    expect(killedAt).toBeGreaterThan(0);
    expect(result.ordersSeen.length).toBeGreaterThan(0);
    // Every order a client saw succeed exists exactly once.
    const { rows } = await cluster.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM customer_orders WHERE customer_order_number = ANY($1)',
      [result.ordersSeen],
    );
    expect(rows[0].n).toBe(result.ordersSeen.length);
    // Failed requests only while haproxy noticed (within about a second after the kill).
    const late = result.failures.filter((f) => f.at > killedAt + 1_500 || f.at < killedAt - 100);
    const summary = result.failures.map((f) => `${f.at - killedAt} ms: ${f.what.slice(0, 60)}`);
    expect(late, `${result.failures.length} failures: ${JSON.stringify(summary.slice(0, 8))}`).toEqual([]);
    // Every supplier order is transmitted, exactly once (one successful attempt), by the surviving node.
    await waitUntil(async () => {
      const pending = await cluster.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM supplier_order_transmissions t
           JOIN supplier_orders so ON so.id = t.supplier_order_id
           JOIN customer_orders co ON co.id = so.customer_order_id
          WHERE co.customer_order_number = ANY($1) AND t.state <> 'sent'`,
        [result.ordersSeen],
      );
      return pending.rows[0].n === 0;
    }, 90_000);
    const twice = await cluster.pool.query(
      `SELECT a.supplier_order_id FROM supplier_order_transmission_attempts a
         JOIN supplier_orders so ON so.id = a.supplier_order_id
         JOIN customer_orders co ON co.id = so.customer_order_id
        WHERE co.customer_order_number = ANY($1) AND a.outcome = 'sent'
        GROUP BY a.supplier_order_id HAVING count(*) > 1`,
      [result.ordersSeen],
    );
    expect(twice.rows).toEqual([]);
    // The killed node starts again and rejoins.
    await cluster.start(a);
    await cluster.waitForBalancer(a, true);
  }, 200_000);

  it('a rolling restart of both nodes under load fails no request', async () => {
    // A node an earlier test left stopped starts first.
    for (const node of [a, b])
      if (node.process?.exitCode !== null || node.process?.signalCode) await cluster.start(node);
    for (const node of [a, b]) await cluster.waitForBalancer(node, true);
    let step = 0;
    const result = await runLoad(cluster, 40_000, async (elapsed) => {
      if (elapsed < 3_000) return;
      if (step > 0) return;
      step = 1;
      for (const node of [a, b]) {
        const code = await cluster.stop(node);
        expect(code, `node ${node.name} exit code`).toBe(0);
        await cluster.start(node);
        await cluster.waitForBalancer(node, true);
      }
    });
    expect(result.failures, JSON.stringify(result.failures.slice(0, 5))).toEqual([]);
    expect(result.requests).toBeGreaterThan(50);
  }, 200_000);
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 250) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
