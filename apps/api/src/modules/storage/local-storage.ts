/**
 * The directory backend (STORAGE_BACKEND=local, the default): a key is a path under DATA_DIR, so the files of an
 * installation from before the seam ('catalogue-media/…', 'reports/…', 'catalogue-imports/…') are found where they
 * are. A file is written to a temporary name beside it and renamed: readers never see half a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, type FileStorage, type PutOptions, type StoredFileInfo } from './storage.ts';
import { byteLimit } from './limit.ts';

/** Names that are work in progress, never stored files: temporary writes, report parts, unpacked zips. */
const isScratch = (name: string) => name.endsWith('.tmp') || name.endsWith('.part') || name.endsWith('.d');
/** What of DATA_DIR is storage (the rest is the embedded database, keys, mails, the search index snapshot). */
export const LOCAL_STORAGE_AREAS = ['catalogue-imports', 'catalogue-media', 'reports', 'files'];

export class LocalStorage implements FileStorage {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  private pathOf(key: string) {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, content: Readable | Buffer, options: PutOptions = {}) {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
      await pipeline(source, byteLimit(options.maxBytes), fs.createWriteStream(temporary));
      const { size } = await fs.promises.stat(temporary);
      await fs.promises.rename(temporary, target);
      return { size };
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string) {
    const file = this.pathOf(key);
    const handle = await fs.promises.open(file, 'r').catch(() => null);
    return handle ? handle.createReadStream() : null;
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    const stat = await fs.promises.stat(this.pathOf(key)).catch(() => null);
    return stat?.isFile() ? { key, size: stat.size, modifiedAt: stat.mtime } : null;
  }

  async delete(key: string) {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix = ''): AsyncIterable<StoredFileInfo> {
    for (const area of LOCAL_STORAGE_AREAS) {
      if (prefix && !area.startsWith(prefix) && !prefix.startsWith(`${area}/`)) continue;
      for await (const key of this.walk(area))
        if (key.startsWith(prefix)) {
          const info = await this.stat(key);
          if (info) yield info;
        }
    }
  }

  private async *walk(relative: string): AsyncIterable<string> {
    const entries = await fs.promises
      .readdir(path.join(this.root, relative), { withFileTypes: true })
      .catch(() => [] as fs.Dirent[]);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (isScratch(entry.name)) continue;
      const key = `${relative}/${entry.name}`;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) yield key;
    }
  }

  async materialise(key: string) {
    const file = this.pathOf(key);
    return fs.existsSync(file) ? { path: file, release: async () => {} } : null;
  }

  /** Temporary files of writes a crashed process left behind. */
  async removeAbandonedWrites(olderThanMs: number) {
    for (const area of LOCAL_STORAGE_AREAS) await this.removeTmp(path.join(this.root, area), olderThanMs);
  }

  private async removeTmp(dir: string, olderThanMs: number): Promise<void> {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.endsWith('.d')) await this.removeTmp(file, olderThanMs);
      else if (entry.isFile() && entry.name.endsWith('.tmp')) {
        const stat = await fs.promises.stat(file).catch(() => null);
        if (stat && Date.now() - stat.mtimeMs > olderThanMs) await fs.promises.rm(file, { force: true });
      }
    }
  }
}
