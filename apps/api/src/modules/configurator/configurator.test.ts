import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuratorLimits, configuratorMessages, parameterMessages } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { demoKitchenConfiguratorSecret } from '../../seed/demo-world.ts';
import { signHandOff, signReturn, verifyHandOff } from './signing.ts';

let t: TestApp;
const BUYER = 'einkauf@example.com'; // current partner 100001
const BUYER2 = 'einkauf2@example.com'; // 100003
const SELLER = 'verkauf@example.com'; // 200001
const KITCHEN = '200008';
const SECRET = demoKitchenConfiguratorSecret;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const slide = (as: string) => t.request('GET', '/v1/KitchenConfigurator/Slide', { as });
const setRelation = async (buyer: string, status: number | null, active = true) => {
  await t.pool.query('DELETE FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2', [
    buyer,
    KITCHEN,
  ]);
  if (status !== null) {
    await t.pool.query(
      `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number, is_active)
       VALUES ($1, $2, $3, 'KW-1', $4)`,
      [KITCHEN, buyer, status, active],
    );
  }
  // Written with SQL, not through the API: the API's read-model cache applies it before the next answer.
  await t.app.readModels.synced();
};
/** Sets a parameter's only value (null removes it) and returns the previous one. */
const setValue = async (key: string, value: string | null): Promise<string | null> => {
  const { rows } = await t.pool.query('SELECT value FROM custom_parameter_values WHERE key = $1', [key]);
  await t.pool.query('DELETE FROM custom_parameter_values WHERE key = $1', [key]);
  if (value !== null)
    await t.pool.query('INSERT INTO custom_parameter_values (key, value) VALUES ($1, $2)', [key, value]);
  // Written with SQL, not through the API: the API's read-model cache applies it before the next answer.
  await t.app.readModels.synced();
  return rows[0]?.value ?? null;
};
const nowSeconds = () => Math.floor(Date.now() / 1000);
const signedReturn = (over: Partial<Record<'articleNumber' | 'supplierId' | 'partner' | 'expires', string>> = {}) => {
  const r = {
    articleNumber: 'KW-HERFORD-1',
    supplierId: KITCHEN,
    partner: '100001',
    expires: String(nowSeconds() + 600),
    ...over,
  };
  return { ...r, signature: signReturn(SECRET, r) };
};
const verify = (body: Record<string, unknown>, as = BUYER) =>
  t.request('POST', '/v1/KitchenConfigurator/Return/Verify', { as, body });

describe('signing', () => {
  it('signs the hand-off over partner, supplier and expiry and refuses forged or expired tokens', () => {
    const now = 1_800_000_000;
    const token = signHandOff(SECRET, { partner: '100001', supplier: KITCHEN, expires: now + 60 });
    expect(token).toMatch(/^100001\.200008\.1800000060\.[0-9a-f]{64}$/);
    expect(verifyHandOff(SECRET, token, now)).toEqual({ partner: '100001', supplier: KITCHEN, expires: now + 60 });
    expect(verifyHandOff(SECRET, token, now + 60)).toBeNull();
    expect(verifyHandOff('another-secret-of-16+', token, now)).toBeNull();
    expect(verifyHandOff(SECRET, token.replace('100001.', '100003.'), now)).toBeNull();
    expect(verifyHandOff(SECRET, token.slice(0, -2), now)).toBeNull();
    expect(verifyHandOff(SECRET, 'garbage', now)).toBeNull();
  });
});

describe('slide visibility', () => {
  it('buyers: only with an approved and active relation to the kitchen manufacturer', async () => {
    await setRelation('100001', null);
    expect((await slide(BUYER)).body).toMatchObject({ visible: false, url: null });
    for (const [status, active] of [
      [2, true],
      [3, true],
      [6, true],
      [1, false],
    ] as const) {
      await setRelation('100001', status, active);
      expect((await slide(BUYER)).body.visible, `status ${status} active ${active}`).toBe(false);
    }
    await setRelation('100001', 1, true);
    const res = await slide(BUYER);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      visible: true,
      supplierBpNumber: KITCHEN,
      supplierName: 'Küchenwerk Ostwestfalen',
    });
    const url = new URL(res.body.url);
    expect(url.origin + url.pathname).toBe('https://konfigurator.kuechenwerk.example/start');
    expect(url.searchParams.get('returnUrl')).toMatch(/\/add-to-cart$/);
    const handOff = verifyHandOff(SECRET, url.searchParams.get('token')!, nowSeconds());
    expect(handOff).toMatchObject({ partner: '100001', supplier: KITCHEN });
    expect(handOff!.expires - nowSeconds()).toBeLessThanOrEqual(configuratorLimits.handOffTokenSeconds);
    expect(new Date(res.body.expiresAt).getTime()).toBe(handOff!.expires * 1000);
    // Another buyer partner without a relation does not see it.
    expect((await slide(BUYER2)).body.visible).toBe(false);
  });

  it('a supplier setting with white space around it (also other than spaces) names the same supplier', async () => {
    await setRelation('100001', 1, true);
    const previous = await setValue('KitchenConfiguratorSupplier', `  ${KITCHEN} `);
    try {
      expect((await slide(BUYER)).body).toMatchObject({ visible: true, supplierName: 'Küchenwerk Ostwestfalen' });
      await setValue('KitchenConfiguratorSupplier', `\u00a0${KITCHEN}\t`);
      expect((await slide(BUYER)).body).toMatchObject({ visible: true, supplierName: 'Küchenwerk Ostwestfalen' });
    } finally {
      await setValue('KitchenConfiguratorSupplier', previous);
    }
  });

  it('buyers: not without the client secret', async () => {
    await setRelation('100001', 1, true);
    const previous = await setValue('KitchenConfiguratorClientSecret', null);
    try {
      expect((await slide(BUYER)).body.visible).toBe(false);
    } finally {
      await setValue('KitchenConfiguratorClientSecret', previous);
    }
    expect((await slide(BUYER)).body.visible).toBe(true);
  });

  it('sellers: when the kitchen manufacturer is among their partners', async () => {
    expect((await slide(SELLER)).body.visible).toBe(false);
    const previous = await setValue('KitchenConfiguratorSupplier', '200001');
    try {
      const res = await slide(SELLER);
      expect(res.body).toMatchObject({ visible: true, supplierBpNumber: '200001' });
      expect(new URL(res.body.url).searchParams.get('token')).toMatch(/^200001\.200001\./);
    } finally {
      await setValue('KitchenConfiguratorSupplier', previous);
    }
  });

  it('everyone else sees it when the configurator is set up, without a partner token', async () => {
    for (const as of ['admin@example.com', 'support@example.com', 'betrieb@example.com', 'gast@example.com']) {
      const res = await slide(as);
      expect(res.body.visible, as).toBe(true);
      expect(new URL(res.body.url).searchParams.has('token'), as).toBe(false);
    }
    const previous = await setValue('KitchenConfiguratorUrl', null);
    try {
      expect((await slide('admin@example.com')).body.visible).toBe(false);
    } finally {
      await setValue('KitchenConfiguratorUrl', previous);
    }
  });
});

describe('return verification', () => {
  it('accepts a return signed by the configurator for the current partner', async () => {
    const body = signedReturn();
    const res = await verify(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ articleNumber: body.articleNumber, supplierId: KITCHEN, partner: '100001' });
  });

  it('refuses unsigned, tampered, expired, foreign and overlong returns with a German title', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['unsigned', { articleNumber: 'KW-1', supplierId: KITCHEN }, configuratorMessages.returnUnsigned],
      ['no expiry', { ...signedReturn(), expires: undefined }, configuratorMessages.returnUnsigned],
      ['tampered article', { ...signedReturn(), articleNumber: 'KW-OTHER' }, configuratorMessages.returnInvalid],
      ['tampered partner', { ...signedReturn(), partner: '100003' }, configuratorMessages.returnInvalid],
      [
        'wrong secret',
        { ...signedReturn(), signature: signReturn('x'.repeat(20), signedReturn()) },
        configuratorMessages.returnInvalid,
      ],
      ['garbage signature', { ...signedReturn(), signature: 'zz' }, configuratorMessages.returnInvalid],
      [
        'other supplier',
        (() => {
          const r = {
            articleNumber: 'NB1',
            supplierId: '200001',
            partner: '100001',
            expires: String(nowSeconds() + 60),
          };
          return { ...r, signature: signReturn(SECRET, r) };
        })(),
        configuratorMessages.returnInvalid,
      ],
      ['expired', signedReturn({ expires: String(nowSeconds() - 1) }), configuratorMessages.returnExpired],
      [
        'valid for too long',
        signedReturn({ expires: String(nowSeconds() + configuratorLimits.returnMaxLifetimeSeconds + 600) }),
        configuratorMessages.returnInvalid,
      ],
      ['other partner', signedReturn({ partner: '100003' }), configuratorMessages.returnOtherPartner],
    ];
    for (const [name, body, title] of cases) {
      const res = await verify(body);
      expect(res.status, name).toBe(400);
      expect(res.headers.get('content-type'), name).toContain('application/problem+json');
      expect(res.body.title, name).toBe(title);
    }
    // Bad input is a 400 with the fields, never a 500.
    const bad = await verify({ supplierId: KITCHEN });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('body.articleNumber');
  });

  it('refuses every return while no secret is configured; only buyers may verify', async () => {
    const previous = await setValue('KitchenConfiguratorClientSecret', null);
    try {
      const res = await verify(signedReturn());
      expect(res.status).toBe(400);
      expect(res.body.title).toBe(configuratorMessages.returnNotConfigured);
    } finally {
      await setValue('KitchenConfiguratorClientSecret', previous);
    }
    expect((await verify(signedReturn(), SELLER)).status).toBe(403);
    expect((await verify(signedReturn(), 'admin@example.com')).status).toBe(403);
  });
});

describe('the client secret stays on the server', () => {
  it('is not readable through the public configuration values, nor part of any slide answer', async () => {
    for (const as of [BUYER, SELLER, 'admin@example.com', 'gast@example.com']) {
      for (const key of ['KitchenConfiguratorClientSecret', 'KitchenConfiguratorUrl']) {
        expect((await t.request('GET', `/v1/ConfigurationValues/${key}`, { as })).status, `${as} ${key}`).toBe(404);
      }
      expect(JSON.stringify((await slide(as)).body)).not.toContain(SECRET);
    }
    // The public kitchen settings the SPA reads.
    for (const key of ['KitchenConfiguratorSupplier', 'ManufacturerBannerSupplier', 'IntroductoryVideoUrl']) {
      const res = await t.request('GET', `/v1/ConfigurationValues/${key}`, { as: BUYER });
      expect(res.status, key).toBe(200);
      expect(res.body.value, key).toBeTruthy();
    }
    const manufacturer = await t.request('GET', '/v1/ConfigurationValues/IntroductoryVideoManufacturer', { as: BUYER });
    const { rows } = await t.pool.query('SELECT supplier_bp_number FROM manufacturers WHERE manufacturer_id = $1', [
      manufacturer.body.value,
    ]);
    expect(rows[0]?.supplier_bp_number).toBe(KITCHEN);
  });

  it('checks the new settings when an administrator stores them', async () => {
    const post = (key: string, value: string) =>
      t.request('POST', `/v1/CustomParameter/${key}/values`, {
        as: 'admin@example.com',
        body: { value, validFrom: '2099-01-01', validTo: '2099-12-31' },
      });
    const titles = (res: any) => (res.body.errors ?? []).map((e: any) => e.message);
    expect(titles(await post('KitchenConfiguratorClientSecret', 'kurz'))).toContain(parameterMessages.secretLength);
    expect(titles(await post('KitchenConfiguratorUrl', '/relativ'))).toContain(parameterMessages.absoluteUrl);
    expect(titles(await post('KitchenConfiguratorSupplier', 'abc'))).toContain(parameterMessages.partnerNumber);
    expect(titles(await post('IntroductoryVideoUrl', 'javascript:alert(1)'))).toContain(parameterMessages.urlValue);
    expect(titles(await post('IntroductoryVideoManufacturer', 'a~b'))).toContain(parameterMessages.manufacturerId);
  });
});
