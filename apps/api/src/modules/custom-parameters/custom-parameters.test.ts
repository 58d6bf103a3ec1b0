import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, parameterMessages, problemToast } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

let t: TestApp;
const ADMIN = 'admin@example.com';
const BUYER = 'einkauf@example.com';

beforeAll(async () => {
  t = await startTestApp();
  // One parameter per value type, two of them allowing several values at a time.
  await t.pool.query(`INSERT INTO custom_parameters (key, description, type_id, max_value_count, is_public) VALUES
    ('TestInteger', 'Ganzzahl', 1, 1, false), ('TestNumber', 'Zahl', 2, 2, false), ('TestVarchar', 'Text', 3, 3, true),
    ('TestDate', 'Datum', 4, 1, false), ('TestEmail', 'E-Mail', 5, 1, false)`);
});
afterAll(async () => {
  await t?.close();
});

const add = (key: string, body: Record<string, unknown>) =>
  t.request('POST', `/v1/CustomParameter/${key}/values`, { as: ADMIN, body });
const messagesOf = (res: { body: any }) => (res.body.errors ?? []).map((e: any) => e.message);

describe('reading', () => {
  it('lists parameters sorted by key and shows one with its values', async () => {
    const list = await t.request('GET', '/v1/CustomParameter', { as: ADMIN });
    expect(list.status).toBe(200);
    const keys = list.body.map((p: any) => p.key);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('MaxCartCount');
    const one = await t.request('GET', '/v1/CustomParameter/MaxCartCount', { as: ADMIN });
    expect(one.body).toMatchObject({ key: 'MaxCartCount', typeId: 3, maxValueCount: 1, isPublic: true });
    expect(one.body.values).toEqual([{ id: expect.any(Number), value: '10', validFrom: null, validTo: null }]);
    expect((await t.request('GET', '/v1/CustomParameter/Unbekannt', { as: ADMIN })).status).toBe(404);
    // The values table of the detail page comes from the spec's own call.
    const values = await t.request('GET', '/v1/CustomParameter/MaxCartCount/values', { as: ADMIN });
    expect(values.status).toBe(200);
    expect(values.body).toEqual(one.body.values);
    expect((await t.request('GET', '/v1/CustomParameter/Unbekannt/values', { as: ADMIN })).status).toBe(404);
  });

  it('is for administrators only', async () => {
    for (const as of ['support@example.com', 'betrieb@example.com', 'verkauf@example.com', BUYER]) {
      expect((await t.request('GET', '/v1/CustomParameter', { as })).status, as).toBe(403);
      expect((await t.request('GET', '/v1/CustomParameter/MaxCartCount/values', { as })).status, as).toBe(403);
      const post = await t.request('POST', '/v1/CustomParameter/TestVarchar/values', { as, body: { value: 'x' } });
      expect(post.status, as).toBe(403);
    }
  });
});

describe('value rules', () => {
  it.each([
    ['TestInteger', '', messages.required],
    ['TestInteger', '   ', messages.required],
    ['TestInteger', '1.5', parameterMessages.notInteger],
    ['TestNumber', 'zwei', parameterMessages.notNumber],
    ['TestDate', '2025-02-30', parameterMessages.notDate],
    ['TestDate', '31.12.2025', parameterMessages.notDate],
    ['TestEmail', 'kein-mail', parameterMessages.notEmail],
    ['MaxCartCount', '0', parameterMessages.wholeNumberMin(1)],
    ['MaxCartCount', 'drei', parameterMessages.wholeNumberMin(1)],
    ['AttachmentsMaxFileSize', '0', parameterMessages.sizeInMb],
    ['AttachmentsAllowedFileFormats', 'pdf, *.exe', parameterMessages.extensionList],
    ['AttachmentsMaxFilesCount', '-1', parameterMessages.wholeNumberRange(1, 100)],
    ['NoteOfUseAllowedSuppliers', 'Nordbad', parameterMessages.partnerList],
    ['SupplierOrderConfirmationWindowHours', '200', parameterMessages.wholeNumberRange(1, 168)],
  ])('%s = %j is refused', async (key, value, message) => {
    const res = await t.request('PUT', `/v1/CustomParameter/${key}/values/999999999`, { as: ADMIN, body: { value } });
    // A value id that does not exist is a 404 before its content matters; POST checks the content.
    expect(res.status).toBe(404);
    const posted = await add(key, { value });
    expect(posted.status).toBe(400);
    expect(posted.body.title).toBe(parameterMessages.invalidValue);
    expect(messagesOf(posted)).toContain(message);
  });

  it('accepts typed values and sends empty dates as null', async () => {
    for (const [key, value] of [
      ['TestInteger', '42'],
      ['TestNumber', '3,5'],
      ['TestDate', '2026-01-31'],
      ['TestEmail', 'info@portal.example'],
    ]) {
      const res = await add(key, { value, validFrom: '', validTo: null });
      expect(res.status, key).toBe(201);
      expect(res.body).toMatchObject({ value, validFrom: null, validTo: null });
    }
  });

  it('refuses a start after the end', async () => {
    const res = await add('TestVarchar', { value: 'a', validFrom: '2026-05-01', validTo: '2026-04-01' });
    expect(messagesOf(res)).toEqual([parameterMessages.rangeOrder]);
  });

  it('one value at a time: validity ranges must not overlap', async () => {
    // TestInteger already holds an open-ended value.
    const open = await add('TestInteger', { value: '7', validFrom: '2030-01-01' });
    expect(open.status).toBe(400);
    expect(messagesOf(open)).toEqual([parameterMessages.overlap]);
    const [row] = (await t.request('GET', '/v1/CustomParameter/TestInteger/values', { as: ADMIN })).body;
    const bounded = await t.request('PUT', `/v1/CustomParameter/TestInteger/values/${row.id}`, {
      as: ADMIN,
      body: { value: '42', validFrom: null, validTo: '2029-12-31' },
    });
    expect(bounded.status).toBe(200);
    expect((await add('TestInteger', { value: '7', validFrom: '2030-01-01' })).status).toBe(201);
    const overlapping = await add('TestInteger', { value: '8', validFrom: '2029-12-31', validTo: '2030-06-01' });
    expect(messagesOf(overlapping)).toEqual([parameterMessages.overlap]);
  });

  it('several values: at most maxValueCount valid at the same time', async () => {
    expect((await add('TestNumber', { value: '1' })).status).toBe(201); // second value (3,5 exists)
    const third = await add('TestNumber', { value: '2' });
    expect(third.status).toBe(400);
    expect(messagesOf(third)).toEqual([parameterMessages.maxValues(2)]);
  });

  it('the toast joins the detail titles with ". "', () => {
    expect(problemToast({ title: 'T', errors: [{ message: 'A' }, { message: 'B' }] })).toBe('A. B');
    expect(problemToast({ title: 'Nur Titel' })).toBe('Nur Titel');
  });

  it('deletes a value and answers 404 for an unknown one', async () => {
    const created = await add('TestVarchar', { value: 'weg damit' });
    expect(
      (await t.request('DELETE', `/v1/CustomParameter/TestVarchar/values/${created.body.id}`, { as: ADMIN })).status,
    ).toBe(204);
    expect(
      (await t.request('DELETE', `/v1/CustomParameter/TestVarchar/values/${created.body.id}`, { as: ADMIN })).status,
    ).toBe(404);
    // A value of another key is not reachable through this key.
    const [cart] = (await t.request('GET', '/v1/CustomParameter/MaxCartCount/values', { as: ADMIN })).body;
    expect((await t.request('DELETE', `/v1/CustomParameter/TestVarchar/values/${cart.id}`, { as: ADMIN })).status).toBe(
      404,
    );
  });
});

describe('feature settings are read from here on the next request', () => {
  it('MaxCartCount 2: the third cart is refused with the tooltip text, public values readable by the SPA', async () => {
    const [value] = (await t.request('GET', '/v1/CustomParameter/MaxCartCount/values', { as: ADMIN })).body;
    const changed = await t.request('PUT', `/v1/CustomParameter/MaxCartCount/values/${value.id}`, {
      as: ADMIN,
      body: { value: '2', validFrom: null, validTo: null },
    });
    expect(changed.status).toBe(200);
    const config = await t.request('GET', '/v1/ConfigurationValues/MaxCartCount', { as: BUYER });
    expect(config.body.value).toBe('2');
    const carts = await t.request('GET', '/v1/MultiCarts', { as: BUYER });
    const existing = Array.isArray(carts.body) ? carts.body.length : (carts.body.items?.length ?? 0);
    let last: { status: number; body: any } = { status: 0, body: null };
    for (let i = existing; i < 3; i++) {
      last = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: `Korb ${i}` } });
    }
    expect(last.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(last.body)).toContain(messages.maxCarts(2));
  });

  it('a non-public parameter is not readable through ConfigurationValues', async () => {
    // Decision (docs/back-office.md): non-public values are for no caller, staff included (spec §6).
    for (const as of [BUYER, 'support@example.com', 'betrieb@example.com', ADMIN]) {
      expect((await t.request('GET', '/v1/ConfigurationValues/TestInteger', { as })).status, as).toBe(404);
    }
    expect((await t.request('GET', '/v1/ConfigurationValues/TestVarchar', { as: BUYER })).status).toBe(200);
  });
});

describe('secret parameters (type Geheimnis)', () => {
  const KEY = 'KitchenConfiguratorClientSecret';
  const stored = async () =>
    (await t.pool.query<{ value: string }>('SELECT value FROM custom_parameter_values WHERE key = $1', [KEY])).rows.map(
      (r) => r.value,
    );

  it('never return the value: not in the list, not in the detail, not in the values, not after saving', async () => {
    const [secret] = await stored();
    expect(secret, 'the demo world sets a client secret').toBeTruthy();
    const list = await t.request('GET', '/v1/CustomParameter', { as: ADMIN });
    expect(list.body.find((p: any) => p.key === KEY)).toMatchObject({ typeId: 6, isPublic: false });
    expect(list.text).not.toContain(secret);
    const one = await t.request('GET', `/v1/CustomParameter/${KEY}`, { as: ADMIN });
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(secret);
    expect(one.body.values).toEqual([{ id: expect.any(Number), value: null, validFrom: null, validTo: null }]);
    const values = await t.request('GET', `/v1/CustomParameter/${KEY}/values`, { as: ADMIN });
    expect(values.text).not.toContain(secret);
    // Nor through the configuration call every signed-in user may make.
    expect((await t.request('GET', `/v1/ConfigurationValues/${KEY}`, { as: ADMIN })).status).toBe(404);

    const fresh = 'ein-neues-geheimnis-0123456789';
    const saved = await t.request('PUT', `/v1/CustomParameter/${KEY}/values/${one.body.values[0].id}`, {
      as: ADMIN,
      body: { value: fresh },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.value).toBeNull();
    expect(saved.text).not.toContain(fresh);
    expect(await stored()).toEqual([fresh]);
  });

  it('keep the stored value when saved without a new one (only the dates change)', async () => {
    const before = await stored();
    const [{ id }] = (await t.request('GET', `/v1/CustomParameter/${KEY}/values`, { as: ADMIN })).body;
    const saved = await t.request('PUT', `/v1/CustomParameter/${KEY}/values/${id}`, {
      as: ADMIN,
      body: { value: '', validFrom: '2024-01-01' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ id, value: null, validFrom: '2024-01-01', validTo: null });
    expect(await stored()).toEqual(before);
    // A new value still needs one, and the key's rule still applies to a new secret.
    expect((await add(KEY, { value: '', validFrom: '2099-01-01' })).status).toBe(400);
    const short = await t.request('PUT', `/v1/CustomParameter/${KEY}/values/${id}`, {
      as: ADMIN,
      body: { value: 'kurz' },
    });
    expect(messagesOf(short)).toContain(parameterMessages.secretLength);
  });

  it('cannot be made public in the database', async () => {
    await expect(t.pool.query(`UPDATE custom_parameters SET is_public = true WHERE key = $1`, [KEY])).rejects.toThrow(
      /custom_parameters_secret_not_public/,
    );
  });
});
