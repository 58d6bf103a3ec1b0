/** The PostgreSQL storage backend's tables (migration 0480): a file row per key, its bytes in numbered chunks. */
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { inTransaction } from '../../db/pool.ts';

export interface StoredFileRow {
  id: number;
  key: string;
  size: number;
  createdAt: Date;
}

const COLUMNS = `id, key, size_bytes AS size, created_at AS "createdAt"`;

export async function findFile(db: Queryable, key: string): Promise<StoredFileRow | null> {
  const { rows } = await db.query<StoredFileRow>(`SELECT ${COLUMNS} FROM stored_files WHERE key = $1`, [key]);
  return rows[0] ?? null;
}

/** A file being written, under a key of its own until it is complete (finishFile). */
export async function insertPartialFile(db: Queryable, partialKey: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`INSERT INTO stored_files (key) VALUES ($1) RETURNING id`, [
    partialKey,
  ]);
  return rows[0]!.id;
}

export async function insertChunk(db: Queryable, fileId: number, seq: number, data: Buffer) {
  await db.query(`INSERT INTO stored_file_chunks (file_id, seq, data) VALUES ($1, $2, $3)`, [fileId, seq, data]);
}

/**
 * The complete file takes its key in one transaction: the file that had it goes (with its chunks). Two writes of one
 * key that finish at once: the later one meets the earlier's row (unique key) and tries again, so the last one wins.
 */
export async function finishFile(pool: pg.Pool, fileId: number, key: string, size: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction({ $client: pool }, async (tx) => {
        await tx.$client.query(`DELETE FROM stored_files WHERE key = $1 AND id <> $2`, [key, fileId]);
        await tx.$client.query(`UPDATE stored_files SET key = $2, size_bytes = $3, created_at = now() WHERE id = $1`, [
          fileId,
          key,
          size,
        ]);
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505' || attempt >= 3) throw error;
    }
  }
}

export async function deleteFileById(db: Queryable, fileId: number) {
  await db.query(`DELETE FROM stored_files WHERE id = $1`, [fileId]);
}

/** Chunk `seq` of a file, or null past its end. */
export async function readChunk(db: Queryable, fileId: number, seq: number): Promise<Buffer | null> {
  const { rows } = await db.query<{ data: Buffer }>(
    `SELECT data FROM stored_file_chunks WHERE file_id = $1 AND seq = $2`,
    [fileId, seq],
  );
  return rows[0]?.data ?? null;
}

export async function deleteFile(db: Queryable, key: string) {
  await db.query(`DELETE FROM stored_files WHERE key = $1`, [key]);
}

/** One page of the files under a prefix, in key order after `after`. */
export async function listFiles(db: Queryable, prefix: string, after: string, limit: number) {
  const { rows } = await db.query<StoredFileRow>(
    `SELECT ${COLUMNS} FROM stored_files WHERE starts_with(key, $1) AND key > $2 ORDER BY key LIMIT $3`,
    [prefix, after, limit],
  );
  return rows;
}
