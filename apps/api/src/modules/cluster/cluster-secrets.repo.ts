import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';

/** Secrets shared by every node (migration 0440): written once by the first node, read by all. */

/** Stores `value` under `name` unless a node already did; returns whatever is stored now (the first writer wins). */
export async function insertSecretOnce<T>(db: Queryable, name: string, value: T): Promise<T> {
  const { rows } = await db.query<{ value: T }>(
    `WITH inserted AS (
       INSERT INTO cluster_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING value)
     SELECT value FROM inserted UNION ALL SELECT value FROM cluster_secrets WHERE name = $1 LIMIT 1`,
    [name, JSON.stringify(value)],
  );
  // Under READ COMMITTED a conflicting insert's row is visible to the second statement of a new snapshot only:
  // read it again if the CTE's snapshot could not see it.
  if (rows[0]) return rows[0].value;
  const again = await readSecret<T>(db, name);
  if (again === undefined) throw new Error(`cluster secret ${name} could not be stored`);
  return again;
}

export async function readSecret<T>(db: Queryable, name: string): Promise<T | undefined> {
  const { rows } = await db.query<{ value: T }>('SELECT value FROM cluster_secrets WHERE name = $1', [name]);
  return rows[0]?.value;
}

/**
 * Replaces a secret through `change` under a transaction-scoped advisory lock (two nodes rotating at the same time
 * rotate once). `change` returns null to leave it as it is.
 */
export async function updateSecretLocked<T>(
  pool: pg.Pool,
  name: string,
  change: (current: T | undefined) => T | null | Promise<T | null>,
): Promise<T | undefined> {
  const client = await pool.connect();
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`cluster_secrets:${name}`]);
    const current = await readSecret<T>(client, name);
    const next = await change(current);
    if (next !== null) {
      await client.query(
        `INSERT INTO cluster_secrets (name, value) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [name, JSON.stringify(next)],
      );
    }
    await client.query('COMMIT');
    return next ?? current;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
