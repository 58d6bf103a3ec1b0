import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const valid = {
  companyName: 'Baustelle Neubau Süd',
  contactPerson: 'Herr Kaya',
  streetName: 'Ringstraße',
  houseNumber: '5',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
};

describe('delivery addresses', () => {
  it('offers the registered address read-only and refuses to change or delete it', async () => {
    const list = await t.request('GET', '/v1/DeliveryAddresses', { as: 'einkauf@example.com' });
    expect(list.status).toBe(200);
    const registered = list.body.find((a: any) => a.isReadOnly);
    expect(registered).toMatchObject({
      companyName: 'Sanitär Müller GmbH',
      streetName: 'Lindenstraße',
      city: 'Köln',
      countryCode: 'DE',
    });
    expect(
      (await t.request('PUT', `/v1/DeliveryAddresses/${registered.id}`, { as: 'einkauf@example.com', body: valid }))
        .status,
    ).toBe(400);
    expect(
      (await t.request('DELETE', `/v1/DeliveryAddresses/${registered.id}`, { as: 'einkauf@example.com' })).status,
    ).toBe(400);
  });

  it('creates, changes and deletes an address of the current partner', async () => {
    const created = await t.request('POST', '/v1/DeliveryAddresses', { as: 'einkauf@example.com', body: valid });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...valid, isReadOnly: false, phoneNumber: null });
    const changed = await t.request('PUT', `/v1/DeliveryAddresses/${created.body.id}`, {
      as: 'einkauf@example.com',
      body: { ...valid, city: 'Bonn', countryCode: 'AT' },
    });
    expect(changed.body).toMatchObject({ city: 'Bonn', countryCode: 'AT' });
    expect(
      (await t.request('DELETE', `/v1/DeliveryAddresses/${created.body.id}`, { as: 'einkauf@example.com' })).status,
    ).toBe(204);
  });

  it('requires the mandatory fields, defaults to DE and allows only listed countries', async () => {
    const missing = await t.request('POST', '/v1/DeliveryAddresses', {
      as: 'einkauf@example.com',
      body: { companyName: ' ' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual([
      'body.city',
      'body.companyName',
      'body.houseNumber',
      'body.postalCode',
      'body.streetName',
    ]);
    expect(missing.body.errors[0].message).toBe('Pflichtfeld');
    const us = await t.request('POST', '/v1/DeliveryAddresses', {
      as: 'einkauf@example.com',
      body: { ...valid, countryCode: 'US' },
    });
    expect(us.status).toBe(400);
    const { countryCode: _c, ...noCountry } = valid;
    expect(
      (await t.request('POST', '/v1/DeliveryAddresses', { as: 'einkauf@example.com', body: noCountry })).body
        .countryCode,
    ).toBe('DE');
  });

  it("another partner's address is a 404", async () => {
    const created = await t.request('POST', '/v1/DeliveryAddresses', { as: 'einkauf@example.com', body: valid });
    expect(
      (await t.request('PUT', `/v1/DeliveryAddresses/${created.body.id}`, { as: 'einkauf2@example.com', body: valid }))
        .status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/v1/DeliveryAddresses/${created.body.id}`, { as: 'einkauf2@example.com' })).status,
    ).toBe(404);
    const other = await t.request('GET', '/v1/DeliveryAddresses', { as: 'einkauf2@example.com' });
    expect(other.body.some((a: any) => a.id === created.body.id)).toBe(false);
  });
});

describe('projects', () => {
  it('creates projects, refuses duplicates and validates lengths', async () => {
    const created = await t.request('POST', '/v1/Projects', {
      as: 'einkauf@example.com',
      body: { code: 'Neubau Müller', description: 'EFH Lindenstraße' },
    });
    expect(created.status).toBe(201);
    const dup = await t.request('POST', '/v1/Projects', { as: 'einkauf@example.com', body: { code: 'neubau müller' } });
    expect(dup.status).toBe(400);
    expect(dup.body.type).toBe('entity-already-exists');
    expect(dup.body.title).toBe('Ein Projekt mit diesem Namen existiert bereits.');
    const long = await t.request('POST', '/v1/Projects', {
      as: 'einkauf@example.com',
      body: { code: 'x'.repeat(36), description: 'y'.repeat(201) },
    });
    expect(long.body.errors.map((e: any) => e.message)).toEqual(['Maximal 35 Zeichen', 'Maximal 200 Zeichen']);
    const empty = await t.request('POST', '/v1/Projects', { as: 'einkauf@example.com', body: { code: '' } });
    expect(empty.body.errors[0].message).toBe('Pflichtfeld');
    const list = await t.request('GET', '/v1/Projects', { as: 'einkauf@example.com' });
    expect(list.body).toEqual([{ id: created.body.id, code: 'Neubau Müller', description: 'EFH Lindenstraße' }]);
    expect((await t.request('GET', '/v1/Projects', { as: 'einkauf2@example.com' })).body).toEqual([]);
  });
});
