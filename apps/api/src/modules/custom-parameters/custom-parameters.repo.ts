import type { Queryable as Client } from '../../db/queryable.ts';

export interface ParameterRow {
  key: string;
  description: string;
  type_id: number;
  max_value_count: number;
  is_public: boolean;
}
export interface ValueRow {
  id: string;
  value: string;
  valid_from: string | null;
  valid_to: string | null;
}

export async function listParameters(c: Client) {
  const { rows } = await c.query<ParameterRow>(
    'SELECT key, description, type_id, max_value_count, is_public FROM custom_parameters ORDER BY key',
  );
  return rows;
}

export async function findParameter(c: Client, key: string, forUpdate = false) {
  const { rows } = await c.query<ParameterRow>(
    `SELECT key, description, type_id, max_value_count, is_public FROM custom_parameters WHERE key = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [key],
  );
  return rows[0] ?? null;
}

export async function listValues(c: Client, key: string) {
  const { rows } = await c.query<ValueRow>(
    `SELECT id, value, to_char(valid_from, 'YYYY-MM-DD') AS valid_from, to_char(valid_to, 'YYYY-MM-DD') AS valid_to
       FROM custom_parameter_values WHERE key = $1 ORDER BY valid_from NULLS FIRST, id`,
    [key],
  );
  return rows;
}

export async function insertValue(
  c: Client,
  key: string,
  v: { value: string; validFrom: string | null; validTo: string | null },
) {
  const { rows } = await c.query<{ id: string }>(
    'INSERT INTO custom_parameter_values (key, value, valid_from, valid_to) VALUES ($1, $2, $3, $4) RETURNING id',
    [key, v.value, v.validFrom, v.validTo],
  );
  return Number(rows[0].id);
}

export async function updateValue(
  c: Client,
  key: string,
  id: number,
  v: { value: string; validFrom: string | null; validTo: string | null },
) {
  const { rowCount } = await c.query(
    'UPDATE custom_parameter_values SET value = $3, valid_from = $4, valid_to = $5 WHERE key = $1 AND id = $2',
    [key, id, v.value, v.validFrom, v.validTo],
  );
  return rowCount === 1;
}

export async function deleteValue(c: Client, key: string, id: number) {
  const { rowCount } = await c.query('DELETE FROM custom_parameter_values WHERE key = $1 AND id = $2', [key, id]);
  return rowCount === 1;
}
