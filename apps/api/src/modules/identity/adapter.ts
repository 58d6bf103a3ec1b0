import type pg from 'pg';

/** oidc-provider storage adapter on Postgres (one row per model instance). */
export function createPostgresAdapter(pool: pg.Pool) {
  return class PostgresAdapter {
    constructor(readonly type: string) {}

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      await pool.query(
        `INSERT INTO oidc_payloads (id, type, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (type, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          id,
          this.type,
          payload,
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          expiresIn ?? null,
        ],
      );
    }

    async findBy(column: 'id' | 'uid' | 'user_code', value: string) {
      const { rows } = await pool.query<{ payload: Record<string, unknown>; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oidc_payloads
          WHERE type = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
        [this.type, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return { ...row.payload, ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}) };
    }

    find(id: string) {
      return this.findBy('id', id);
    }
    findByUid(uid: string) {
      return this.findBy('uid', uid);
    }
    findByUserCode(userCode: string) {
      return this.findBy('user_code', userCode);
    }

    async consume(id: string) {
      await pool.query('UPDATE oidc_payloads SET consumed_at = now() WHERE type = $1 AND id = $2', [this.type, id]);
    }
    async destroy(id: string) {
      await pool.query('DELETE FROM oidc_payloads WHERE type = $1 AND id = $2', [this.type, id]);
    }
    async revokeByGrantId(grantId: string) {
      await pool.query('DELETE FROM oidc_payloads WHERE grant_id = $1', [grantId]);
      // Access tokens are JWTs that were never stored: remember the grant so the API refuses them.
      // Kept longer than any access token lives (provider.ts ACCESS_TOKEN_TTL).
      if (this.type === 'AccessToken') {
        await pool.query(
          `WITH cleanup AS (DELETE FROM revoked_grants WHERE expires_at < now())
           INSERT INTO revoked_grants (grant_id, expires_at) VALUES ($1, now() + interval '1 hour')
           ON CONFLICT (grant_id) DO NOTHING`,
          [grantId],
        );
      }
    }
  };
}
