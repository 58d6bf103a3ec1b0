import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { IDS_SESSION_IDLE_SECONDS, idsMessages } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { idsMatrixContext } from '../../src/modules/ids/ids-matrix.fixtures.ts';

/**
 * An IDS session is a narrow scope (docs/ids.md, "IDS session"): its partner is the kndnr of the entry, it works on
 * its partner's default cart only, it cannot order, switch partner or change credentials, it ends after two hours,
 * 30 idle minutes, a sign-out or the return, and it leaves the user's normal session alone.
 */
let t: TestApp;
const buyer = 'einkauf@example.com';

beforeAll(async () => {
  t = await startTestApp();
  await insertTestOffers(t.pool);
});
afterAll(async () => {
  await t?.close();
});

async function idsSession() {
  const { contextId, code } = await idsMatrixContext(t);
  const res = await t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
  expect(res.status).toBe(200);
  return { token: res.body.accessToken as string, contextId, expiresIn: res.body.expiresIn as number };
}

const currentPartnerInDb = async () =>
  (await t.pool.query("SELECT current_bp_number FROM users WHERE email = 'einkauf@example.com'")).rows[0]
    .current_bp_number;

describe('IDS session scope', () => {
  it('cannot switch the partner, and the user keeps the partner of the normal session', async () => {
    expect((await t.request('PUT', '/v1/UserProfile', { as: buyer, body: { bpNumber: '100002' } })).status).toBe(204);
    const { token } = await idsSession();
    // The exchange for kndnr 100001 left the normal session's partner as it was.
    expect(await currentPartnerInDb()).toBe('100002');
    expect((await t.request('GET', '/v1/UserProfile', { as: buyer })).body.currentBpNumber).toBe('100002');

    const profile = await t.request('GET', '/v1/UserProfile', { token });
    expect(profile.body).toMatchObject({ currentBpNumber: '100001' });
    expect(profile.body.availableBusinessPartners.map((p: { number: string }) => p.number)).toEqual(['100001']);

    const res = await t.request('PUT', '/v1/UserProfile', { token, body: { bpNumber: '100002' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(idsMessages.notInIdsSession);
    expect(await currentPartnerInDb()).toBe('100002');
    // The IDS session still works for 100001.
    expect((await t.request('GET', '/v1/BusinessPartners/Current', { token })).body.name).toBeTruthy();
    expect((await t.request('GET', '/v1/UserProfile', { token })).body.currentBpNumber).toBe('100001');
    await t.request('PUT', '/v1/UserProfile', { as: buyer, body: { bpNumber: '100001' } });
  });

  it('creates no carts, places no orders and changes no IDS credentials', async () => {
    const { token } = await idsSession();
    expect((await t.request('POST', '/v1/MultiCarts', { token, body: { name: 'IDS Zweitkorb' } })).status).toBe(403);
    const cart = await t.request('GET', '/v1/MultiCarts/Default', { token });
    expect(cart.status).toBe(200);
    const added = await t.request('POST', '/v1/CartItems', {
      token,
      body: { productInstanceId: offers.nordbad, quantity: 2 },
    });
    expect(added.status).toBe(201);
    expect(added.body.cartId).toBe(cart.body.id);
    const checkout = await t.request('POST', `/v1/MultiCarts/${cart.body.id}/checkout`, { token, body: {} });
    expect(checkout.status).toBe(403);
    expect(checkout.body.detail).toBe(idsMessages.notInIdsSession);
    const orders = await t.pool.query("SELECT count(*)::int AS n FROM customer_orders WHERE bp_number = '100001'");
    expect(orders.rows[0].n).toBe(0);
    const credentials = await t.request('PUT', '/v1/IdsCredentials', {
      token,
      body: { loginName: 'uebernahme', password: 'geheim-123' },
    });
    expect(credentials.status).toBe(403);
    const stored = await t.pool.query("SELECT count(*)::int AS n FROM ids_credentials WHERE login_name = 'uebernahme'");
    expect(stored.rows[0].n).toBe(0);
  });

  it('sees and uses only its cart, and only its own IDS context', async () => {
    const other = await t.request('POST', '/v1/MultiCarts', { as: buyer, body: { name: 'Nicht für IDS' } });
    expect(other.status).toBe(201);
    const { token, contextId } = await idsSession();
    const list = await t.request('GET', '/v1/MultiCarts', { token });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { isDefault: boolean }) => c.isDefault)).toEqual([true]);
    expect((await t.request('GET', `/v1/MultiCarts/${other.body.id}`, { token })).status).toBe(403);
    const into = await t.request('POST', '/v1/CartItems', {
      token,
      body: { cartId: other.body.id, productInstanceId: offers.nordbad, quantity: 2 },
    });
    expect(into.status).toBe(403);
    expect(into.body.detail).toBe(idsMessages.onlyIdsCart);

    const foreign = await idsMatrixContext(t);
    expect((await t.request('GET', `/v1/IdsCarts/${foreign.contextId}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/IdsCartItems/${foreign.itemId}`, { token })).status).toBe(404);
    expect((await t.request('GET', `/v1/IdsCarts/${contextId}`, { token })).status).toBe(200);
  });
});

describe('IDS session lifetime', () => {
  it('issues a token for two hours at most', async () => {
    const { token, expiresIn } = await idsSession();
    expect(expiresIn).toBe(2 * 60 * 60);
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(2 * 60 * 60);
  });

  it('ends after 30 idle minutes', async () => {
    const { token, contextId } = await idsSession();
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(200);
    // Idle since just over the limit (session_expires_at is named so the caller caches hear of the change).
    await t.pool.query(
      `UPDATE ids_contexts SET last_seen_at = now() - make_interval(secs => $2 + 5),
              session_expires_at = session_expires_at WHERE id = $1`,
      [contextId, IDS_SESSION_IDLE_SECONDS],
    );
    // The change reaches the API's caller cache by notification, within milliseconds.
    const res = await eventually(async () => {
      const r = await t.request('GET', '/v1/UserProfile', { token });
      return r.status === 401 && r;
    });
    expect(res.body.detail).toBe(idsMessages.sessionEnded);
  });

  it('stays open while it is used, and ends at its lifetime', async () => {
    const { token, contextId } = await idsSession();
    // Used 20 minutes ago: still open, and the use moves the idle clock.
    await t.pool.query(
      `UPDATE ids_contexts SET last_seen_at = now() - interval '20 minutes', session_expires_at = session_expires_at
        WHERE id = $1`,
      [contextId],
    );
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(200);
    const touched = await t.pool.query(
      "SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM ids_contexts WHERE id = $1",
      [contextId],
    );
    expect(touched.rows[0].fresh).toBe(true);
    await t.pool.query("UPDATE ids_contexts SET session_expires_at = now() - interval '1 second' WHERE id = $1", [
      contextId,
    ]);
    await eventually(async () => (await t.request('GET', '/v1/UserProfile', { token })).status === 401);
  });

  it('ends at sign-out, and the normal session goes on', async () => {
    const { token } = await idsSession();
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(200);
    expect((await t.request('POST', '/v1/Ids/Logout', { token })).status).toBe(204);
    const after = await t.request('GET', '/v1/UserProfile', { token });
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe(idsMessages.sessionEnded);
    expect((await t.request('GET', '/v1/UserProfile', { as: buyer })).status).toBe(200);
    // A normal session's logout call ends nothing.
    expect((await t.request('POST', '/v1/Ids/Logout', { as: buyer })).status).toBe(204);
    expect((await t.request('GET', '/v1/UserProfile', { as: buyer })).status).toBe(200);
  });

  it('ends at the return of the cart', async () => {
    const { token, contextId } = await idsSession();
    const res = await t.request('POST', `/v1/Ids/complete?idsContextId=${contextId}&withCheckout=false`, { token });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/v1/UserProfile', { token })).status).toBe(401);
  });
});
