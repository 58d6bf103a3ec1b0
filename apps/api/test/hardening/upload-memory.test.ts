import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { uploadScratchRoot } from '../../src/lib/uploads/spooled-upload.ts';
import { FeatureSettingKey } from '@shk/contracts';
import { readNumberSetting } from '../../src/modules/settings/settings.service.ts';
import { fileStorage } from '../../src/modules/storage/index.ts';
import { fileForm } from '../support/supplier-fixtures.ts';

/**
 * An upload is not held whole in memory on its way into the postgres file storage: a 20 MB CSV attachment whose every
 * row needs neutralising (the most work: checked, parsed twice and written anew) is sent as a stream, and the API's
 * memory (JS heap plus buffers, measured in this process, which runs the API) grows by far less than the file.
 * Reading the file whole, as uploads did before, grew it by several times the file's size.
 */
const BUYER = 'einkauf@example.com';
const SIZE_MB = 20;
const ROW = 'A-4711;1;=SUMME(A1:A9)\r\n';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STORAGE_BACKEND: 'postgres' } });
  await insertTestOffers(t.pool);
  dir = await mkdtemp(join(tmpdir(), 'upload-memory-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function writeCsv(path: string, bytes: number) {
  const out = createWriteStream(path);
  out.write('Artikel;Menge;Hinweis\r\n');
  const block = ROW.repeat(1000);
  for (let written = 0; written < bytes; written += block.length)
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/** Posts the file as multipart/form-data read from disk, so the client side holds no copy either. */
async function postFile(url: string, token: string, path: string, fileName: string) {
  const boundary = `----grenze${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + (await stat(path)).size + tail.length;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (piece: string) => (body += piece));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path);
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe('uploads stream into the postgres storage', () => {
  it(`a ${SIZE_MB} MB CSV attachment grows the API's memory by far less than its size`, async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Speicher' } });
    const item = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    const csv = join(dir, 'gross.csv');
    await writeCsv(csv, SIZE_MB * 1024 * 1024);
    const token = await t.token(BUYER);

    gc();
    const before = used();
    let peak = before;
    // What the API holds, not the garbage it has yet to collect: each sample follows a full collection. The
    // collections take at most a fifth of the time, so a busy machine slows the upload down but never stops it.
    let sampling = true;
    const sampleLoop = (async () => {
      while (sampling) {
        const start = performance.now();
        gc();
        peak = Math.max(peak, used());
        await new Promise((resolve) => setTimeout(resolve, Math.max(250, 4 * (performance.now() - start))));
      }
    })();
    const res = await postFile(`${t.baseUrl}/v1/CartItems/${item.body.cartItemId}/attachments`, token, csv, 'g.csv');
    sampling = false;
    await sampleLoop;
    const growthMb = (peak - before) / 1024 / 1024;
    console.info(`upload of ${SIZE_MB} MB: API memory grew by ${growthMb.toFixed(1)} MB`);

    expect(res.status, res.body).toBe(200);
    const [attachment] = JSON.parse(res.body) as { id: number }[];
    // Stored neutralised: every formula cell now starts with an apostrophe, nothing else changed.
    const download = await fetch(`${t.baseUrl}/v1/CartItems/${item.body.cartItemId}/attachments/${attachment.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const hash = createHash('sha256');
    let size = 0;
    let firstRows = '';
    for await (const piece of download.body!) {
      hash.update(piece);
      size += piece.length;
      if (firstRows.length < 200) firstRows += Buffer.from(piece).toString('utf8', 0, 200);
    }
    expect(firstRows).toContain("A-4711;1;'=SUMME(A1:A9)\r\n");
    expect(size).toBeGreaterThan(SIZE_MB * 1024 * 1024);
    // Nothing of the upload is left on the API's disk.
    expect(await readdir(uploadScratchRoot(t.config.dataDir))).toEqual([]);
    // Measured: about 6 MB (7 MB on a busy machine); reading the file whole grew it by about 80 MB.
    expect(growthMb).toBeLessThan(SIZE_MB * 0.6);
  }, 300_000);

  it('a refused upload leaves nothing on disk and nothing in the storage: too large, wrong format, unparsable CSV', async () => {
    const cart = await t.request('POST', '/v1/MultiCarts', { as: BUYER, body: { name: 'Abgelehnt' } });
    const item = await t.request('POST', '/v1/CartItems', {
      as: BUYER,
      body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 1 },
    });
    const url = `/v1/CartItems/${item.body.cartItemId}/attachments`;
    const maxMb = await readNumberSetting(t.db, FeatureSettingKey.AttachmentsMaxFileSize);
    for (const [content, name, type] of [
      [Buffer.alloc((maxMb + 1) * 1024 * 1024, 0x41), 'gross.txt', 'maxFileSize'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'liste.csv', 'fileFormat'],
      [Buffer.from('a;"b\n1;2'), 'kaputt.csv', 'fileFormat'],
    ] as const) {
      const res = await t.request('POST', url, { as: BUYER, body: fileForm(content, name, 'text/plain', 'files') });
      expect(res.status, name).toBe(400);
      expect(res.body.type, name).toBe(type);
      expect(await readdir(uploadScratchRoot(t.config.dataDir)), name).toEqual([]);
    }
    const stored = [];
    for await (const file of fileStorage({ config: t.config, pool: t.pool }).list(
      `files/cart-attachments/${item.body.cartItemId}/`,
    ))
      stored.push(file.key);
    expect(stored).toEqual([]);
  });
});
