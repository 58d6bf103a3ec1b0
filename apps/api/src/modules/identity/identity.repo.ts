import type { Queryable } from '../../db/queryable.ts';

/** Storage of the embedded identity provider: oidc-provider's payloads, ended grants and the users' credentials. */

export interface AccountRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
}

export async function findAccountById(db: Queryable, id: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    'SELECT id, email, first_name, last_name, password_hash FROM users WHERE id::text = $1',
    [id],
  );
  return rows[0];
}

/** The account of a login name (e-mail, case-insensitive). */
export async function findAccountByLogin(db: Queryable, login: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    'SELECT id, email, first_name, last_name, password_hash FROM users WHERE lower(email) = lower($1)',
    [login],
  );
  return rows[0];
}

/** One oidc-provider model instance (one row per type and id); `expiresIn` seconds, none: kept until removed. */
export async function upsertPayload(
  db: Queryable,
  type: string,
  id: string,
  payload: Record<string, unknown>,
  expiresIn: number | null,
): Promise<void> {
  await db.query(
    `INSERT INTO oidc_payloads (id, type, payload, grant_id, user_code, uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
     ON CONFLICT (type, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
       user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
    [id, type, payload, payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn],
  );
}

/** An unexpired payload by id, uid or user code. */
export async function findPayload(
  db: Queryable,
  type: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<{ payload: Record<string, unknown>; consumed_at: Date | null } | undefined> {
  const { rows } = await db.query<{ payload: Record<string, unknown>; consumed_at: Date | null }>(
    `SELECT payload, consumed_at FROM oidc_payloads
      WHERE type = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
    [type, value],
  );
  return rows[0];
}

export async function consumePayload(db: Queryable, type: string, id: string): Promise<void> {
  await db.query('UPDATE oidc_payloads SET consumed_at = now() WHERE type = $1 AND id = $2', [type, id]);
}

export async function deletePayload(db: Queryable, type: string, id: string): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE type = $1 AND id = $2', [type, id]);
}

export async function deletePayloadsOfGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE grant_id = $1', [grantId]);
}

/**
 * Remembers an ended grant for an hour — longer than any access token lives (provider.ts ACCESS_TOKEN_TTL) —
 * and drops the expired entries.
 */
export async function recordRevokedGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(
    `WITH cleanup AS (DELETE FROM revoked_grants WHERE expires_at < now())
     INSERT INTO revoked_grants (grant_id, expires_at) VALUES ($1, now() + interval '1 hour')
     ON CONFLICT (grant_id) DO NOTHING`,
    [grantId],
  );
}

export async function isGrantRevoked(db: Queryable, grantId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM revoked_grants WHERE grant_id = $1', [grantId]);
  return (rowCount ?? 0) > 0;
}
