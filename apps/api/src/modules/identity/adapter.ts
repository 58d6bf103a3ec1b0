import type { Queryable } from '../../db/queryable.ts';
import * as repo from './identity.repo.ts';

/**
 * oidc-provider storage adapter on Postgres (one row per model instance; SQL in identity.repo.ts). onGrantRevoked
 * runs after a revoked grant is committed (this process's caller cache drops its tokens at once; other processes
 * learn it through NOTIFY auth_changes).
 */
export function createPostgresAdapter(pool: Queryable, onGrantRevoked?: (grantId: string) => void) {
  return class PostgresAdapter {
    constructor(readonly type: string) {}

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      await repo.upsertPayload(pool, this.type, id, payload, expiresIn ?? null);
    }

    async findBy(column: 'id' | 'uid' | 'user_code', value: string) {
      const row = await repo.findPayload(pool, this.type, column, value);
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
      await repo.consumePayload(pool, this.type, id);
    }
    async destroy(id: string) {
      await repo.deletePayload(pool, this.type, id);
    }
    async revokeByGrantId(grantId: string) {
      await repo.deletePayloadsOfGrant(pool, grantId);
      // Access tokens are JWTs that were never stored: remember the grant so the API refuses them.
      if (this.type === 'AccessToken') {
        await repo.recordRevokedGrant(pool, grantId);
        onGrantRevoked?.(grantId);
      }
    }
  };
}
