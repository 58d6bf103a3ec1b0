import type { Db } from '../../db/pool.ts';
import { featureSettingDefaults } from '@shk/contracts';
import { findFirstValuesValidToday, findValuesValidToday, insertParameterIfMissing } from './settings.repo.ts';

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
  const rows = await findValuesValidToday(db, key);
  if (!rows.length) return null;
  const values = rows.map((r) => r.value).filter((v): v is string => v !== null);
  return { key, value: values[0] ?? null, values, isPublic: rows[0].is_public };
}

/** The `value` readConfiguration gives for each of several keys, in one statement (unknown keys are missing). */
export function readConfigurationValues(db: Db, keys: string[]): Promise<Map<string, string | null>> {
  return findFirstValuesValidToday(db, keys);
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
    await insertParameterIfMissing(db, d);
  }
}
