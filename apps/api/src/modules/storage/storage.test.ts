/**
 * The storage seam, the same checks for both backends: a file larger than a chunk streams in and out unchanged, a
 * limit (what is left of a quota) breaks a write off without a trace, delete and list work, a write a crashed process
 * left unfinished is swept, and a key cannot leave the storage. The postgres backend also streams 50 MB through with
 * the process's memory growing by far less than the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { LocalStorage, PostgresStorage, StorageLimitError, copyAllFiles, type FileStorage } from './index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** `size` pseudo-random bytes in pieces of 64 KB, generated as they are read (never one buffer). */
function generated(size: number, seed: string) {
  let produced = 0;
  let counter = 0;
  const hash = createHash('sha256');
  const stream = new Readable({
    read() {
      if (produced >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, size - produced);
      const piece = Buffer.alloc(n);
      for (let o = 0; o < n; o += 32) createHash('sha256').update(`${seed}:${counter++}`).digest().copy(piece, o);
      produced += n;
      hash.update(piece);
      this.push(piece);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function digestOf(stream: Readable) {
  const hash = createHash('sha256');
  for await (const piece of stream) hash.update(piece as Buffer);
  return hash.digest('hex');
}

const backends: [string, () => FileStorage][] = [
  ['local', () => new LocalStorage(fs.mkdtempSync(path.join(t.config.dataDir, 'storage-')))],
  // Chunks of 64 KB: files of a few hundred KB already span several chunks.
  ['postgres', () => new PostgresStorage(t.pool, 64 * 1024)],
];

describe.each(backends)('%s backend', (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it('streams a file larger than a chunk in and out unchanged', async () => {
    const source = generated(1_000_003, 'gross');
    const { size } = await storage.put('reports/gross.csv', source.stream);
    expect(size).toBe(1_000_003);
    expect(await storage.stat('reports/gross.csv')).toMatchObject({ key: 'reports/gross.csv', size: 1_000_003 });
    expect(await digestOf((await storage.get('reports/gross.csv'))!)).toBe(source.digest());
  });

  it('replaces a file under the same key, and keeps empty files', async () => {
    await storage.put('files/a.txt', Buffer.from('erste Fassung'));
    await storage.put('files/a.txt', Buffer.from('zweite'));
    expect(Buffer.concat(await (await storage.get('files/a.txt'))!.toArray()).toString()).toBe('zweite');
    await storage.put('files/leer.txt', Buffer.alloc(0));
    expect(Buffer.concat(await (await storage.get('files/leer.txt'))!.toArray()).length).toBe(0);
    expect(await storage.stat('files/leer.txt')).toMatchObject({ size: 0 });
  });

  it('breaks a write off at its limit and leaves nothing of it', async () => {
    await expect(storage.put('files/zu-gross.bin', generated(300_000, 'quota').stream, { maxBytes: 200_000 })).rejects
      .toBeInstanceOf(StorageLimitError);
    expect(await storage.stat('files/zu-gross.bin')).toBeNull();
    const names = [];
    for await (const f of storage.list('files/')) names.push(f.key);
    expect(names).not.toContain('files/zu-gross.bin');
    await storage.removeAbandonedWrites(0);
    expect(await storage.put('files/passt.bin', randomBytes(1000), { maxBytes: 1000 })).toEqual({ size: 1000 });
  });

  it('deletes, lists by prefix, and says null for a missing file', async () => {
    await storage.put('catalogue-media/200001/abc', Buffer.from('bild'));
    await storage.put('catalogue-media/200002/def', Buffer.from('plan'));
    const listed = [];
    for await (const f of storage.list('catalogue-media/')) listed.push(f.key);
    expect(listed).toEqual(['catalogue-media/200001/abc', 'catalogue-media/200002/def']);
    await storage.delete('catalogue-media/200001/abc');
    await storage.delete('catalogue-media/200001/abc');
    expect(await storage.get('catalogue-media/200001/abc')).toBeNull();
    expect(await storage.stat('catalogue-media/200001/abc')).toBeNull();
  });

  it('refuses keys that leave the storage', async () => {
    for (const key of ['../etc/passwd', '/abs', 'reports/../../x', 'reports//x', ''])
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
  });

  it('gives a working copy on this machine for code that needs a real file', async () => {
    await storage.put('catalogue-imports/kopie.upload', Buffer.from('<BMECAT/>'));
    const scratch = fs.mkdtempSync(path.join(t.config.dataDir, 'scratch-'));
    const local = (await storage.materialise('catalogue-imports/kopie.upload', scratch))!;
    expect(fs.readFileSync(local.path, 'utf8')).toBe('<BMECAT/>');
    await local.release();
    expect(await storage.stat('catalogue-imports/kopie.upload')).not.toBeNull();
    expect(await storage.materialise('catalogue-imports/fehlt.upload', scratch)).toBeNull();
  });
});

describe('postgres backend', () => {
  it('sweeps a write a crashed process left unfinished', async () => {
    const storage = new PostgresStorage(t.pool, 64 * 1024);
    const broken = new Readable({
      read() {
        this.push(randomBytes(100_000));
        this.destroy(new Error('Verbindung abgebrochen'));
      },
    });
    await expect(storage.put('files/abgebrochen.bin', broken)).rejects.toThrow('Verbindung abgebrochen');
    // A process killed mid-write leaves its partial row: simulated by a row under the partial prefix.
    await t.pool.query(`INSERT INTO stored_files (key, created_at) VALUES ('_partial/tot', now() - interval '2 hours')`);
    await storage.removeAbandonedWrites(60 * 60_000);
    const { rows } = await t.pool.query(`SELECT key FROM stored_files WHERE key LIKE '\\_partial/%'`);
    expect(rows).toEqual([]);
  });

  it('streams 50 MB in and out while the process grows by far less than the file', async () => {
    const storage = new PostgresStorage(t.pool);
    const size = 50 * 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const source = generated(size, 'speicher');
      await storage.put('files/50mb.bin', source.stream);
      expect(await digestOf((await storage.get('files/50mb.bin'))!)).toBe(source.digest());
    } finally {
      clearInterval(sample);
    }
    const growth = peak - before;
    console.log(`storage.test: 50 MB through the postgres backend, RSS grew by ${(growth / 1024 / 1024).toFixed(1)} MB`);
    expect(growth).toBeLessThan(size / 3);
    await storage.delete('files/50mb.bin');
  }, 120_000);
});

describe('copyAllFiles (storage:move)', () => {
  it('copies every file to the other backend, and a second run copies nothing', async () => {
    const local = new LocalStorage(fs.mkdtempSync(path.join(t.config.dataDir, 'move-')));
    const db = new PostgresStorage(t.pool, 64 * 1024);
    const big = generated(300_000, 'move');
    await local.put('reports/1-bericht.xlsx', big.stream);
    await local.put('catalogue-media/200001/0a1b', Buffer.from('bild'));
    const first = await copyAllFiles(local, db);
    expect(first).toMatchObject({ copied: 2, skipped: 0, failed: 0, bytes: 300_004 });
    expect(await copyAllFiles(local, db)).toMatchObject({ copied: 0, skipped: 2, failed: 0 });
    expect(await digestOf((await db.get('reports/1-bericht.xlsx'))!)).toBe(big.digest());
    // And back into an empty directory.
    const back = new LocalStorage(fs.mkdtempSync(path.join(t.config.dataDir, 'back-')));
    const summary = await copyAllFiles(db, back);
    expect(summary.failed).toBe(0);
    expect(await digestOf((await back.get('reports/1-bericht.xlsx'))!)).toBe(big.digest());
  });
});
