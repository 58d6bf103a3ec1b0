/**
 * npm run bench:search-answer — what a search answer costs to compress, measured on real answers without HTTP load.
 *
 * Asks the API (its own process, on the catalogue of bench:search: same BENCH_DATA_DIR) BENCH_DISTINCT (300) distinct
 * queries of the bench's generator uncompressed, then compresses every answer with each candidate setting (brotli
 * qualities, gzip levels; streamed as @fastify/compress streams answers above its sync threshold, and in one call into
 * a buffer) and prints the CPU per answer and the mean bytes. CPU from process.cpuUsage over BENCH_REPEAT (5) passes:
 * unlike wall-clock figures it holds on a busy machine. BENCH_ANSWER_DUMP=<file> also writes the answers (JSON) there.
 */
import zlib from 'node:zlib';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openBenchDatabase, startApiProcess } from './bench-support.ts';
import { loginWithCodeFlow } from '../test/support/oidc-login.ts';
import { distinctQueries } from './search-queries.ts';

const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/shk-bench-search';
const apiPort = Number(process.env.BENCH_API_PORT ?? 3200);
const count = Number(process.env.BENCH_DISTINCT ?? 300);
const repeat = Number(process.env.BENCH_REPEAT ?? 5);
const { server, databaseUrl, pool } = await openBenchDatabase(dataDir, {
  pgPort: Number(process.env.BENCH_PG_PORT ?? 55200),
  poolSize: 4,
});
const api = await startApiProcess({
  port: apiPort,
  timeoutMs: 120_000,
  env: { DATABASE_URL: databaseUrl, PUBLIC_URL: `http://127.0.0.1:${apiPort}`, DATA_DIR: dataDir },
});
const origin = `http://127.0.0.1:${apiPort}`;
const token = (await loginWithCodeFlow(origin, 'einkauf@example.com')).access_token;
const queries = await distinctQueries(pool, { seed: Number(process.env.BENCH_SEED ?? 13), count });
const answers: Buffer[] = [];
for (const q of queries) {
  const res = await fetch(`${origin}/v1/Product/Search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body: JSON.stringify(q.body),
  });
  if (res.ok) answers.push(Buffer.from(await res.arrayBuffer()));
}
api.kill('SIGTERM');
const sizes = answers.map((a) => a.length).sort((a, b) => a - b);
console.log(
  `${answers.length} answers: bytes p50 ${sizes[sizes.length >> 1]}, mean ${Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length)}, max ${sizes[sizes.length - 1]}`,
);
if (process.env.BENCH_ANSWER_DUMP) {
  const fs = await import('node:fs');
  fs.writeFileSync(process.env.BENCH_ANSWER_DUMP, JSON.stringify(answers.map((a) => JSON.parse(a.toString()))));
}

type Candidate = { name: string; sync: (b: Buffer) => Buffer; stream: () => NodeJS.ReadWriteStream };
const brotli = (quality: number, lgwin = 18): Candidate => {
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_LGWIN]: lgwin };
  return {
    name: `brotli ${quality} (window ${lgwin})`,
    sync: (b) =>
      zlib.brotliCompressSync(b, { params: { ...params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
    stream: () => zlib.createBrotliCompress({ params }),
  };
};
const gzip = (level: number): Candidate => ({
  name: `gzip ${level}`,
  sync: (b) => zlib.gzipSync(b, { level }),
  stream: () => zlib.createGzip({ level }),
});
const candidates = [brotli(4), brotli(3), brotli(2), brotli(1), brotli(5), gzip(6), gzip(4), gzip(3), gzip(1)];

async function streamed(c: Candidate, answer: Buffer): Promise<number> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  // @fastify/compress streams a string payload through Readable.from(…) into the compressor.
  await pipeline(Readable.from([answer.toString()]), c.stream(), sink);
  return bytes;
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
console.log('| setting | bytes (mean) | ratio | CPU per answer, one call (ms) | CPU per answer, streamed (ms) |');
console.log('|---|---|---|---|---|');
const plainBytes = answers.reduce((a, b) => a + b.length, 0);
for (const c of candidates) {
  for (const a of answers.slice(0, 20)) c.sync(a); // warm-up
  let bytes = 0;
  const t0 = process.cpuUsage();
  for (let r = 0; r < repeat; r++) for (const a of answers) bytes += c.sync(a).length;
  const syncMs = cpuMs(process.cpuUsage(t0)) / (repeat * answers.length);
  const t1 = process.cpuUsage();
  for (let r = 0; r < repeat; r++) for (const a of answers) await streamed(c, a);
  const streamMs = cpuMs(process.cpuUsage(t1)) / (repeat * answers.length);
  const mean = bytes / repeat / answers.length;
  console.log(
    `| ${c.name} | ${Math.round(mean)} | ${((100 * mean * answers.length) / plainBytes).toFixed(1)} % | ${syncMs.toFixed(3)} | ${streamMs.toFixed(3)} |`,
  );
}
await pool.end();
await server.stop();
process.exit(0);
