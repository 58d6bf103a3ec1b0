import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * The built SPA through the real server: precompressed brotli/gzip chosen by Accept-Encoding, the plain file as
 * fallback, a year of immutable caching for hashed assets and revalidation for index.html.
 */
const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-dist-'));
const INDEX = `<!doctype html><html lang="de"><head><title>SHK-Bestellportal</title>
<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script></head>
<body><div id="root"></div>${'<!-- padding -->'.repeat(64)}</body></html>`;
const SCRIPT = `export const greeting = ${JSON.stringify('Willkommen im SHK-Bestellportal. '.repeat(200))};\n`;
const PLAIN = `export const onlyPlain = ${JSON.stringify('ohne komprimierte Kopie '.repeat(100))};\n`;

/** Writes a file with its .br and .gz copies, as the build does (apps/web/precompress.ts). */
function writeWithCopies(file: string, content: string) {
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, gzipSync(content));
}

/** A raw GET (no automatic decompression, exact Accept-Encoding). */
function get(baseUrl: string, url: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    http
      .get(`${baseUrl}${url}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let t: TestApp;
beforeAll(async () => {
  fs.mkdirSync(path.join(distDir, 'assets'));
  writeWithCopies(path.join(distDir, 'index.html'), INDEX);
  writeWithCopies(path.join(distDir, 'assets/index-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(distDir, 'assets/plain-Ef56Gh78.js'), PLAIN);
  fs.writeFileSync(path.join(distDir, 'robots.txt'), 'User-agent: *\n');
  t = await startTestApp({ env: { WEB_DIST_DIR: distDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('hashed assets', () => {
  it('sends the brotli copy when the browser accepts br, cached for a year', async () => {
    const res = await get(t.baseUrl, '/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
  });

  it('sends the gzip copy to a browser without brotli', async () => {
    const res = await get(t.baseUrl, '/assets/index-Ab12Cd34.js', 'gzip, deflate');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(gunzipSync(res.body).toString()).toBe(SCRIPT);
  });

  it('sends the plain file without Accept-Encoding or with identity only', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await get(t.baseUrl, '/assets/index-Ab12Cd34.js', acceptEncoding);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.body.toString()).toBe(SCRIPT);
    }
  });

  it('falls back to the file itself when no compressed copy exists (compressed on the fly, same content)', async () => {
    const res = await get(t.baseUrl, '/assets/plain-Ef56Gh78.js', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers.vary?.toLowerCase()).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.body;
    expect(body.toString()).toBe(PLAIN);
    const identity = await get(t.baseUrl, '/assets/plain-Ef56Gh78.js', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(PLAIN);
  });

  it('answers an unknown asset with 404, not with the SPA', async () => {
    const res = await get(t.baseUrl, '/assets/missing-00000000.js', 'br');
    expect(res.status).toBe(404);
  });
});

describe('index.html', () => {
  it('is revalidated on every load (no-cache, never immutable) and sent compressed', async () => {
    for (const url of ['/', '/suche', '/produkt?productId=1']) {
      const res = await get(t.baseUrl, url, 'gzip, deflate, br');
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers.vary?.toLowerCase(), url).toContain('accept-encoding');
      expect(brotliDecompressSync(res.body).toString(), url).toBe(INDEX);
    }
  });

  it('is sent plain to a client without compression', async () => {
    const res = await get(t.baseUrl, '/warenkorb');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.toString()).toBe(INDEX);
  });

  it('caches other files of the build for an hour only', async () => {
    const res = await get(t.baseUrl, '/robots.txt', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('JSON answers of the API', () => {
  it('are compressed by Accept-Encoding from 2 KiB on, plain below (a cart overview: compressing costs more than it saves)', async () => {
    const br = await get(t.baseUrl, '/v1/openapi.json', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary?.toLowerCase()).toContain('accept-encoding');
    const document = JSON.parse(brotliDecompressSync(br.body).toString());
    expect(document.openapi).toBe('3.1.0');

    const gzip = await get(t.baseUrl, '/v1/openapi.json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(document);

    const plain = await get(t.baseUrl, '/v1/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(document);

    const small = await get(t.baseUrl, '/health', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ status: 'ok' });
  });

  it('a search answer is compressed in one piece: Content-Length, not chunked, and the same JSON as the plain answer', async () => {
    const token = await t.token('einkauf@example.com');
    const search = (acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const body = JSON.stringify({ searchTerm: 'Thermostat', page: 1, pageSize: 25 });
        const request = http.request(
          `${t.baseUrl}/v1/Product/Search`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const plain = await search();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = JSON.parse(plain.body.toString());
    expect(answer.hits.length).toBeGreaterThan(0);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await search(encoding);
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      expect(res.headers['transfer-encoding'], encoding).toBeUndefined();
      expect(Number(res.headers['content-length']), encoding).toBe(res.body.length);
      expect(res.body.length, encoding).toBeLessThan(plain.body.length / 3);
      const decoded = decode(res.body).toString();
      // The very bytes of the plain answer (the favourite flags and prices are the caller's, the same both times).
      expect(decoded, encoding).toBe(plain.body.toString());
    }
  });
});
