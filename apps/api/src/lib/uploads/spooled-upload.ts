import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/**
 * Uploads are not held whole in memory: each multipart file part is written to a file in a scratch directory on this
 * machine's disk (under DATA_DIR, not os.tmpdir(), which may be a RAM disk), checked there and put into the file
 * storage as a stream. The scratch directory lives as long as one request and is removed on every path out of it.
 */
export interface SpooledFile {
  /** The name the client gave (not cleaned). */
  name: string;
  path: string;
  size: number;
}

/** The directory under DATA_DIR that holds the scratch directories of uploads in progress. */
export const uploadScratchRoot = (dataDir: string) => join(dataDir, 'tmp', 'uploads');

/** A scratch directory this old belongs to a process that died mid-upload (no request lives this long). */
const ABANDONED_SCRATCH_MS = 6 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

/** Removes scratch directories a killed process left behind; looked at now and then as uploads come. */
async function removeAbandonedScratch(root: string, now = Date.now()) {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  for (const entry of await readdir(root).catch(() => [])) {
    const path = join(root, entry);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > ABANDONED_SCRATCH_MS) await rm(path, { recursive: true, force: true });
  }
}

/** Runs `work` with a fresh scratch directory and removes it afterwards, whatever happened. */
export async function withUploadScratch<T>(dataDir: string, work: (dir: string) => Promise<T>): Promise<T> {
  const root = uploadScratchRoot(dataDir);
  await mkdir(root, { recursive: true });
  await removeAbandonedScratch(root);
  const dir = await mkdtemp(join(root, 'upload-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What @fastify/multipart's toBuffer throws for a part over its fileSize limit (callers map it to their message). */
export class UploadTooLargeError extends Error {
  readonly code = 'FST_REQ_FILE_TOO_LARGE';
  constructor() {
    super('request file too large');
  }
}

/**
 * Writes a multipart file part to a new file in `dir`. The part's own fileSize limit (given to request.parts) cuts
 * the stream at the limit; a cut part is refused as UploadTooLargeError, as toBuffer does, with nothing kept.
 */
export async function spoolPart(part: { filename: string; file: Readable & { truncated?: boolean } }, dir: string) {
  const path = join(dir, randomUUID());
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(part.file, count, createWriteStream(path));
  if (part.file.truncated) {
    await rm(path, { force: true });
    throw new UploadTooLargeError();
  }
  return { name: part.filename, path, size } satisfies SpooledFile;
}

/** The spooled file as a stream, for FileStorage.put. */
export const spooledStream = (file: { path: string }) => createReadStream(file.path);

/** Reads the whole file: only for kinds whose own limit is small (logos: 1 MB) or checks that need a document. */
export const readSpooled = (file: { path: string }) => readFile(file.path);

/** Chunks of the file in order (64 KiB each), for checks that scan it. */
export async function* chunksOf(path: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) yield chunk as Buffer;
}

/** Up to `length` bytes from `position`. */
export async function readRange(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Spools every file part of a multipart request into `dir` (fields are skipped). Errors of the parts (a file over
 * `limits.fileSize`: UploadTooLargeError; too many files: FST_FILES_LIMIT) reach the caller, which words them.
 */
export async function spoolFileParts(
  request: FastifyRequest,
  dir: string,
  limits: { fileSize: number; files: number },
): Promise<SpooledFile[]> {
  const files: SpooledFile[] = [];
  for await (const part of request.parts({ limits })) {
    if (part.type === 'file') files.push(await spoolPart(part, dir));
  }
  return files;
}
