import type { Queryable } from '../../db/queryable.ts';

export async function listUnits(c: Queryable) {
  const { rows } = await c.query<{ code: string; short_description: string }>(
    'SELECT code, short_description FROM units ORDER BY sort, code',
  );
  return rows;
}
