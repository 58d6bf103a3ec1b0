/**
 * The PostgreSQL backend (STORAGE_BACKEND=postgres): every node of a cluster reads what any node wrote. A file's
 * bytes are cut into chunks of CHUNK_BYTES, each its own row; writing inserts one chunk at a time as the stream
 * delivers it (under a key of its own, '_partial/…', without holding a connection between chunks), and the complete
 * file takes its key in one statement. Reading fetches one chunk per read the consumer asks for (backpressure), so
 * memory stays at about a chunk per transfer whatever the file's size.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import {
  assertValidKey,
  StorageLimitError,
  type FileStorage,
  type PutOptions,
  type StoredFileInfo,
} from './storage.ts';
import * as repo from './stored-files.repo.ts';

/** 512 KB: few rows per file, and a chunk is small beside the process's memory even with many transfers at once. */
export const CHUNK_BYTES = 512 * 1024;
const PARTIAL = '_partial/';
const LIST_PAGE = 500;

export class PostgresStorage implements FileStorage {
  readonly kind = 'postgres';

  constructor(
    private readonly pool: pg.Pool,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async put(key: string, content: Readable | Buffer, options: PutOptions = {}) {
    assertValidKey(key);
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    const fileId = await repo.insertPartialFile(this.pool, `${PARTIAL}${randomUUID()}`);
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      while (pendingBytes >= this.chunkBytes || (all && pendingBytes > 0)) {
        const joined = Buffer.concat(pending, pendingBytes);
        const chunk = joined.subarray(0, Math.min(this.chunkBytes, joined.length));
        const rest = joined.subarray(chunk.length);
        await repo.insertChunk(this.pool, fileId, seq++, Buffer.from(chunk));
        pending = rest.length ? [Buffer.from(rest)] : [];
        pendingBytes = rest.length;
      }
    };
    try {
      for await (const piece of source) {
        const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
        size += buffer.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) throw new StorageLimitError(options.maxBytes);
        pending.push(buffer);
        pendingBytes += buffer.length;
        if (pendingBytes >= this.chunkBytes) await flush(false);
      }
      await flush(true);
      await repo.finishFile(this.pool, fileId, key, size);
      return { size };
    } catch (error) {
      await repo.deleteFileById(this.pool, fileId).catch(() => {});
      throw error;
    }
  }

  async get(key: string): Promise<Readable | null> {
    assertValidKey(key);
    const file = await repo.findFile(this.pool, key);
    if (!file) return null;
    const pool = this.pool;
    let seq = 0;
    let sent = 0;
    // highWaterMark 1: one chunk is fetched ahead of the consumer, never more.
    return new Readable({
      highWaterMark: 1,
      read() {
        if (sent >= file.size) {
          this.push(null);
          return;
        }
        repo.readChunk(pool, file.id, seq++).then(
          (data) => {
            // A file replaced or removed while it was read ends with an error, never with another file's bytes.
            if (!data) this.destroy(new Error(`stored file ${key} changed while it was read`));
            else {
              sent += data.length;
              this.push(data);
            }
          },
          (error: Error) => this.destroy(error),
        );
      },
    });
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    assertValidKey(key);
    const file = await repo.findFile(this.pool, key);
    return file ? { key, size: file.size, modifiedAt: file.createdAt } : null;
  }

  async delete(key: string) {
    assertValidKey(key);
    await repo.deleteFile(this.pool, key);
  }

  async *list(prefix = ''): AsyncIterable<StoredFileInfo> {
    let after = '';
    for (;;) {
      const page = await repo.listFiles(this.pool, prefix, after, LIST_PAGE);
      for (const f of page) if (!f.key.startsWith(PARTIAL)) yield { key: f.key, size: f.size, modifiedAt: f.createdAt };
      if (page.length < LIST_PAGE) return;
      after = page[page.length - 1]!.key;
    }
  }

  async materialise(key: string, scratchDir: string) {
    const stream = await this.get(key);
    if (!stream) return null;
    await fs.promises.mkdir(scratchDir, { recursive: true });
    const file = path.join(scratchDir, key.replace(/\//g, '_'));
    const temporary = `${file}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await pipeline(stream, fs.createWriteStream(temporary));
      await fs.promises.rename(temporary, file);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    return { path: file, release: () => fs.promises.rm(file, { force: true }) };
  }

  /** Writes a crashed process left unfinished. */
  async removeAbandonedWrites(olderThanMs: number) {
    for await (const f of this.partials())
      if (Date.now() - f.modifiedAt.getTime() > olderThanMs) await repo.deleteFile(this.pool, f.key);
  }

  private async *partials(): AsyncIterable<StoredFileInfo> {
    let after = '';
    for (;;) {
      const page = await repo.listFiles(this.pool, PARTIAL, after, LIST_PAGE);
      for (const f of page) yield { key: f.key, size: f.size, modifiedAt: f.createdAt };
      if (page.length < LIST_PAGE) return;
      after = page[page.length - 1]!.key;
    }
  }
}
