/**
 * The one seam every file the portal keeps goes through (uploads of catalogue imports, catalogue media, report
 * files): a key is a relative path ('reports/12-….xlsx'), a file is written once and read as a stream. Two
 * backends: a directory (STORAGE_BACKEND=local, DATA_DIR, for one machine) and PostgreSQL (STORAGE_BACKEND=postgres,
 * files in chunks, for several nodes that share nothing but the database). Neither holds a file whole in memory.
 */
import type { Readable } from 'node:stream';

export interface StoredFileInfo {
  key: string;
  size: number;
  /** When the file was written (sweeps spare young files: an upload being written is young). */
  modifiedAt: Date;
}

export interface PutOptions {
  /**
   * The most bytes the file may have (what is left of a partner's quota): a longer stream is broken off, nothing of
   * it stays, and put rejects with StorageLimitError.
   */
  maxBytes?: number;
}

export interface FileStorage {
  readonly kind: 'local' | 'postgres';
  /** Writes the stream under `key` (replacing a file there) and returns its size; visible only once complete. */
  put(key: string, content: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>;
  /** The file as a stream, or null when there is none. */
  get(key: string): Promise<Readable | null>;
  stat(key: string): Promise<StoredFileInfo | null>;
  /** Removes the file; a missing file is no error. */
  delete(key: string): Promise<void>;
  /** The files whose key starts with `prefix` (sweeps, storage:move, backups). */
  list(prefix?: string): AsyncIterable<StoredFileInfo>;
  /**
   * A path on this machine with the file's bytes, for code that needs a real file (unzipping, parsers that seek):
   * the local backend's own file, or a copy the postgres backend writes under `scratchDir`. `release` removes a copy
   * (never the local backend's file).
   */
  materialise(key: string, scratchDir: string): Promise<{ path: string; release: () => Promise<void> } | null>;
  /** Removes what writes of crashed processes left unfinished (older than `olderThanMs`). */
  removeAbandonedWrites(olderThanMs: number): Promise<void>;
}

/** A file exceeded PutOptions.maxBytes. */
export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file exceeds ${maxBytes} bytes`);
  }
}

/** Keys are relative paths of plain segments: nothing may leave the storage's root. */
export function assertValidKey(key: string) {
  const segments = key.split('/');
  if (!key || key.startsWith('/') || segments.some((s) => !s || s === '.' || s === '..' || s.includes('\\')))
    throw new Error(`invalid storage key: ${key}`);
}
