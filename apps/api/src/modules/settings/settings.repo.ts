import type { Db } from '../../db/pool.ts';

/** A parameter value `v` is valid today in Germany: its validity window, where set, includes today's Berlin date. */
const VALID_TODAY = `(v.valid_from IS NULL OR v.valid_from <= (now() AT TIME ZONE 'Europe/Berlin')::date)
        AND (v.valid_to IS NULL OR v.valid_to >= (now() AT TIME ZONE 'Europe/Berlin')::date)`;

/** A parameter's `is_public` flag with each value valid today (Europe/Berlin), oldest first; no rows for an unknown key. */
export async function findValuesValidToday(
  db: Db,
  key: string,
): Promise<{ is_public: boolean; value: string | null }[]> {
  const { rows } = await db.$client.query<{ is_public: boolean; value: string | null }>(
    `SELECT p.is_public, v.value
       FROM custom_parameters p
       LEFT JOIN custom_parameter_values v ON v.key = p.key AND ${VALID_TODAY}
      WHERE p.key = $1
      ORDER BY v.id`,
    [key],
  );
  return rows;
}

/**
 * The first value valid today of each of several parameters in one statement (what readConfiguration's `value`
 * is for each key: the first non-null value by id; null when the parameter has none; keys without a parameter are
 * missing from the map).
 */
export async function findFirstValuesValidToday(db: Db, keys: string[]): Promise<Map<string, string | null>> {
  const { rows } = await db.$client.query<{ key: string; value: string | null }>(
    `SELECT p.key,
            (SELECT v.value FROM custom_parameter_values v
              WHERE v.key = p.key AND v.value IS NOT NULL AND ${VALID_TODAY}
              ORDER BY v.id LIMIT 1) AS value
       FROM custom_parameters p
      WHERE p.key = ANY($1::text[])`,
    [keys],
  );
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Creates a feature-setting parameter unless it exists; its first value only when the parameter is new. */
export async function insertParameterIfMissing(
  db: Db,
  parameter: { key: string; description: string; isPublic: boolean; value: string; typeId?: number },
): Promise<void> {
  const inserted = await db.$client.query(
    `INSERT INTO custom_parameters (key, description, type_id, max_value_count, is_public)
     VALUES ($1, $2, $4, 1, $3) ON CONFLICT (key) DO NOTHING`,
    [parameter.key, parameter.description, parameter.isPublic, parameter.typeId ?? 3],
  );
  if (inserted.rowCount && parameter.value !== '') {
    await db.$client.query('INSERT INTO custom_parameter_values (key, value) VALUES ($1, $2)', [
      parameter.key,
      parameter.value,
    ]);
  }
}
