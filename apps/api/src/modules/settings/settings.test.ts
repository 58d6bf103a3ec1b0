import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureSettingDefaults } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { recordStatements } from '../../../test/support/statements.ts';

/** GET /v1/ConfigurationValues: defaults, stored values, hidden keys (moved from test/foundation.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

describe('configuration values', () => {
  it.each([
    ['AttachmentsMaxFilesCount', '1'],
    ['AttachmentsMaxFileSize', '25'],
    ['AttachmentsAllowedFileFormats', 'pdf,png,jpg,jpeg,xls,xlsx,csv'],
    ['MaxCartCount', '10'],
  ])('%s defaults to %s', async (key, value) => {
    const res = await t.request('GET', `/v1/ConfigurationValues/${key}`, { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key, value, values: [value] });
  });

  it('has every feature-setting key of the spec stored in the database', async () => {
    const { rows } = await t.pool.query<{ key: string }>('SELECT key FROM custom_parameters');
    expect(rows.map((r) => r.key)).toEqual(expect.arrayContaining(featureSettingDefaults.map((d) => d.key)));
  });

  it('reads the value staff stored, not a constant', async () => {
    await t.pool.query("UPDATE custom_parameter_values SET value = '12' WHERE key = 'MaxCartCount'");
    try {
      const res = await t.request('GET', '/v1/ConfigurationValues/MaxCartCount', { as: 'verkauf@example.com' });
      expect(res.body.value).toBe('12');
    } finally {
      await t.pool.query("UPDATE custom_parameter_values SET value = '10' WHERE key = 'MaxCartCount'");
    }
  });

  it('keeps non-public and unknown keys hidden (404 problem), rejects malformed keys (400)', async () => {
    for (const key of ['KitchenConfiguratorClientSecret', 'NoSuchKey']) {
      const res = await t.request('GET', `/v1/ConfigurationValues/${key}`, { as: 'admin@example.com' });
      expect(res.status, key).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const bad = await t.request('GET', `/v1/ConfigurationValues/${encodeURIComponent('a b;drop')}`, { as: BUYER });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('params.key');
  });
});

describe('readConfigurationValues', () => {
  it('gives each key the value readConfiguration gives, in one statement (validity, first by id, unknown key)', async () => {
    const { readConfiguration, readConfigurationValues } = await import('./settings.service.ts');
    await t.pool.query(`INSERT INTO custom_parameters (key, description, type_id, max_value_count, is_public)
      VALUES ('H3Test', 'test', 3, 3, false), ('H3Empty', 'test', 3, 3, false)`);
    await t.pool.query(`INSERT INTO custom_parameter_values (key, value, valid_from, valid_to) VALUES
      ('H3Test', 'expired', '2000-01-01', '2000-12-31'),
      ('H3Test', ' current ', NULL, NULL), ('H3Test', 'later', NULL, NULL), ('H3Empty', 'future', '2999-01-01', NULL)`);
    const keys = ['H3Test', 'H3Empty', 'MaxCartCount', 'H3Unknown'];
    const recorder = recordStatements(t.pool);
    let values: Map<string, string | null>;
    try {
      values = await readConfigurationValues(t.db, keys);
    } finally {
      recorder.stop();
    }
    expect(recorder.texts).toHaveLength(1);
    expect(Object.fromEntries(values)).toEqual({ H3Test: ' current ', H3Empty: null, MaxCartCount: '10' });
    for (const key of keys) expect(values.get(key) ?? null).toBe((await readConfiguration(t.db, key))?.value ?? null);
  });
});
