import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('UserProfile', () => {
  it('returns the profile with role and partners from the database', async () => {
    const res = await t.request('GET', '/v1/UserProfile', { as: 'einkauf@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Erika',
      role: 1,
      email: 'einkauf@example.com',
      currentBpNumber: '100001',
      currentBpName: 'Sanitär Müller GmbH',
      idsContextId: null,
      availableBusinessPartners: [
        { number: '100001', name: 'Sanitär Müller GmbH' },
        { number: '100002', name: 'Heizungsbau Schmidt & Söhne KG' },
      ],
    });
  });

  it('a user without partners has no current partner', async () => {
    const res = await t.request('GET', '/v1/UserProfile', { as: 'admin@example.com' });
    expect(res.body).toMatchObject({
      role: 3,
      currentBpNumber: null,
      currentBpName: null,
      availableBusinessPartners: [],
    });
  });

  it('switches the current partner and refuses a foreign one', async () => {
    const ok = await t.request('PUT', '/v1/UserProfile', { as: 'einkauf@example.com', body: { bpNumber: '100002' } });
    expect(ok.status).toBe(204);
    const after = await t.request('GET', '/v1/UserProfile', { as: 'einkauf@example.com' });
    expect(after.body.currentBpNumber).toBe('100002');
    const current = await t.request('GET', '/v1/BusinessPartners/Current', { as: 'einkauf@example.com' });
    expect(current.body.name).toBe('Heizungsbau Schmidt & Söhne KG');

    const foreign = await t.request('PUT', '/v1/UserProfile', {
      as: 'einkauf@example.com',
      body: { bpNumber: '100003' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
    await t.request('PUT', '/v1/UserProfile', { as: 'einkauf@example.com', body: { bpNumber: '100001' } });
  });

  it('lists every invalid field', async () => {
    const res = await t.request('PUT', '/v1/UserProfile', { as: 'einkauf@example.com', body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation-error', status: 400 });
    expect(res.body.errors[0].field).toBe('body.bpNumber');
  });
});

describe('BusinessPartners', () => {
  it('returns company data of the current partner', async () => {
    const res = await t.request('GET', '/v1/BusinessPartners/Current', { as: 'einkauf@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      businessPartnerNo: '100001',
      street: 'Lindenstraße',
      houseNumber: '12',
      postalCode: '50667',
      city: 'Köln',
      country: 'DE',
      contact: { eMail: 'info@sanitaer-mueller.example' },
    });
  });

  it('shows suppliers to buyers but hides other buyers (404, not 403)', async () => {
    expect((await t.request('GET', '/v1/BusinessPartners/200001', { as: 'einkauf@example.com' })).status).toBe(200);
    expect((await t.request('GET', '/v1/BusinessPartners/100003', { as: 'einkauf@example.com' })).status).toBe(404);
    expect((await t.request('GET', '/v1/BusinessPartners/999999', { as: 'einkauf@example.com' })).status).toBe(404);
    expect((await t.request('GET', '/v1/BusinessPartners/100003', { as: 'support@example.com' })).status).toBe(200);
  });

  it('a user without a partner gets 403 on the current partner', async () => {
    expect((await t.request('GET', '/v1/BusinessPartners/Current', { as: 'gast@example.com' })).status).toBe(403);
  });
});

describe('problem details', () => {
  it('unknown route is a 404 problem', async () => {
    const res = await t.request('GET', '/v1/DoesNotExist', { as: 'einkauf@example.com' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, type: 'not-found' });
  });

  it('malformed JSON is a 400 problem', async () => {
    const res = await t.request('PUT', '/v1/UserProfile', {
      as: 'einkauf@example.com',
      body: '{"bpNumber":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('Der Anfrageinhalt ist kein gültiges JSON.');
  });

  it('missing or bad token is a 401 problem', async () => {
    expect((await t.request('GET', '/v1/UserProfile')).status).toBe(401);
    const bad = await t.request('GET', '/v1/UserProfile', { token: 'abc.def.ghi' });
    expect(bad.status).toBe(401);
    expect(bad.body.title).toBe('Nicht angemeldet');
  });
});
