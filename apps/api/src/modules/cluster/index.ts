/**
 * Public face of the cluster module: what several API nodes on one PostgreSQL server share besides the domain
 * data (secrets generated once, rate-limit counters). Other modules import only from here.
 */
export { sharedSecret, readSharedSecret, changeSharedSecret } from './shared-secrets.ts';
export { postgresRateLimitStore } from './rate-limit-store.ts';
export { runExclusively, withLockSession, type LockSession, type SessionLockKey } from './cluster-lock.repo.ts';
