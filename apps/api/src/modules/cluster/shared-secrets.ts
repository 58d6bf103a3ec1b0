import type pg from 'pg';
import { insertSecretOnce, readSecret, updateSecretLocked } from './cluster-secrets.repo.ts';

/**
 * A secret every node must share, kept in cluster_secrets (migration 0440). `legacy` is what a single-node
 * installation kept in its DATA_DIR before (taken over once, so what it encrypted or signed stays readable);
 * `create` makes a new one. Two nodes starting together both may create one; the first row written wins and both
 * use it.
 */
export async function sharedSecret<T>(
  pool: pg.Pool,
  name: string,
  legacy: () => T | null,
  create: () => T | Promise<T>,
): Promise<T> {
  const stored = await readSecret<T>(pool, name);
  if (stored !== undefined) return stored;
  return insertSecretOnce(pool, name, legacy() ?? (await create()));
}

export async function readSharedSecret<T>(pool: pg.Pool, name: string): Promise<T | undefined> {
  return readSecret<T>(pool, name);
}

/** Replaces a shared secret under an advisory lock; `change` returns null to keep it. */
export function changeSharedSecret<T>(
  pool: pg.Pool,
  name: string,
  change: (current: T | undefined) => T | null | Promise<T | null>,
): Promise<T | undefined> {
  return updateSecretLocked(pool, name, change);
}
