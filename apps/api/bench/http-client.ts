/**
 * The benches' HTTP client: undici's Pool and request() (what autocannon uses) instead of fetch — keep-alive
 * connections to one origin without fetch's WHATWG layers (Request/Response/Headers objects and web streams per
 * call), so the load generator, which shares the machine's cores with the API and Postgres, needs less CPU per
 * request. The requests stay those of fetch: `accept-encoding: gzip, deflate` (what fetch sends over http) and the
 * answer decompressed, so the API compresses what it compresses for fetch.
 */
import zlib from 'node:zlib';
import { Pool } from 'undici';

export interface BenchResponse {
  status: number;
  text: string;
}

export function benchClient(origin: string) {
  const pool = new Pool(origin, { keepAliveTimeout: 30_000 });
  async function send(
    method: string,
    path: string,
    options: { token?: string; body?: unknown } = {},
  ): Promise<BenchResponse> {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await pool.request({ origin, method: method as 'GET', path, headers, body });
    const raw = Buffer.from(await res.body.arrayBuffer());
    const encoding = res.headers['content-encoding'];
    const plain = encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw;
    return { status: res.statusCode, text: plain.toString('utf8') };
  }
  return { send, close: () => pool.close() };
}
