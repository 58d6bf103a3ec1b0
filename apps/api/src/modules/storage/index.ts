/** The file storage seam (storage.ts) and its backends, chosen by STORAGE_BACKEND. */
import type pg from 'pg';
import type { AppConfig } from '../../config.ts';
import type { FileStorage } from './storage.ts';
import { LocalStorage } from './local-storage.ts';
import { PostgresStorage } from './postgres-storage.ts';

export { StorageLimitError, type FileStorage, type StoredFileInfo, type PutOptions } from './storage.ts';
export { LocalStorage, LOCAL_STORAGE_AREAS } from './local-storage.ts';
export { PostgresStorage, CHUNK_BYTES } from './postgres-storage.ts';
export { copyAllFiles, type MoveSummary } from './move.ts';

export type StorageBackend = AppConfig['storageBackend'];

/** A backend by name, on DATA_DIR or on the pool's database. */
export function createStorage(backend: StorageBackend, dataDir: string, pool: pg.Pool): FileStorage {
  return backend === 'postgres' ? new PostgresStorage(pool) : new LocalStorage(dataDir);
}

const perPool = new WeakMap<pg.Pool, FileStorage>();

/**
 * The process's storage for a pool (one per pool and configuration): modules reach it from the dependencies they
 * already carry (config and pool), so the composition root and every service signature stay as they were.
 */
export function fileStorage(deps: { config: Pick<AppConfig, 'storageBackend' | 'dataDir'>; pool: pg.Pool }) {
  let storage = perPool.get(deps.pool);
  if (!storage) {
    storage = createStorage(deps.config.storageBackend, deps.config.dataDir, deps.pool);
    perPool.set(deps.pool, storage);
  }
  return storage;
}
