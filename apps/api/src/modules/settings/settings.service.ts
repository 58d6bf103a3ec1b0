import type { Db } from '../../db/pool.ts';
import { featureSettingDefaults } from '@shk/contracts';

export interface ConfigurationValue {
  key: string;
  value: string | null;
  values: string[];
}

/** Values of a parameter valid today (Europe/Berlin), oldest first; null when the key is unknown. */
export async function readConfiguration(
  db: Db,
  key: string,
): Promise<(ConfigurationValue & { isPublic: boolean }) | null> {
  const { rows } = await db.$client.query<{ is_public: boolean; value: string | null }>(
    `SELECT p.is_public, v.value
       FROM custom_parameters p
       LEFT JOIN custom_parameter_values v ON v.key = p.key
        AND (v.valid_from IS NULL OR v.valid_from <= (now() AT TIME ZONE 'Europe/Berlin')::date)
        AND (v.valid_to IS NULL OR v.valid_to >= (now() AT TIME ZONE 'Europe/Berlin')::date)
      WHERE p.key = $1
      ORDER BY v.id`,
    [key],
  );
  if (!rows.length) return null;
  const values = rows.map((r) => r.value).filter((v): v is string => v !== null);
  return { key, value: values[0] ?? null, values, isPublic: rows[0].is_public };
}

/** Typed readers used by the services that enforce these limits (one rule, one place). */
export async function readNumberSetting(db: Db, key: string): Promise<number> {
  const fallback = Number(featureSettingDefaults.find((d) => d.key === key)?.value ?? NaN);
  const current = await readConfiguration(db, key);
  const parsed = Number(current?.value);
  return current?.value != null && Number.isFinite(parsed) ? parsed : fallback;
}

export async function readListSetting(db: Db, key: string): Promise<string[]> {
  const current = await readConfiguration(db, key);
  const raw = current?.value ?? featureSettingDefaults.find((d) => d.key === key)?.value ?? '';
  return raw
    .split(/[,;\s]+/)
    .map((s) => s.trim().toLowerCase().replace(/^\./, ''))
    .filter(Boolean);
}

/** Creates the feature-setting parameters with the spec's defaults where missing (idempotent). */
export async function ensureFeatureSettings(db: Db) {
  for (const d of featureSettingDefaults) {
    const inserted = await db.$client.query(
      `INSERT INTO custom_parameters (key, description, type_id, max_value_count, is_public)
       VALUES ($1, $2, 3, 1, $3) ON CONFLICT (key) DO NOTHING`,
      [d.key, d.description, d.isPublic],
    );
    if (inserted.rowCount && d.value !== '') {
      await db.$client.query('INSERT INTO custom_parameter_values (key, value) VALUES ($1, $2)', [d.key, d.value]);
    }
  }
}
