/**
 * The snapshot file of the search index, written and read as a stream of sections instead of one v8-serialised
 * buffer: at 5M products the index is about a gigabyte, and the old format held the bitmaps' serialised copies, the
 * v8 buffer and the file buffer at once (three times the index at the moment of saving, the same again when
 * loading). Here each bitmap is serialised on its own and written through a 16 MB buffer; the typed-array columns
 * are written from their own memory and read straight into the new arrays, so saving or loading needs only the
 * index itself and the buffer.
 *
 * Layout (little-endian): magic `SHKIDX03`, u32 header length, header JSON (format, meta, feed position, column
 * length, section counts); the bitmaps `all`, `promo`; the value maps brands, classes, leaves, suppliers (u32
 * count, then per value i32 key and bitmap); the lexemes (u32 count, then per lexeme u16 byte length, UTF-8 bytes,
 * u8 weight mask, the bitmaps of the weights in the mask); the columns rank, name rank, price (f64), f1…f8 (f32);
 * the magic again (a truncated file is not loaded). A bitmap is u32 byte length and roaring's portable format.
 *
 * Writing and reading are synchronous: the index is not changed while it is written (the change feed applies its
 * rounds on the same event loop), so the snapshot is consistent with its feed position without copying the columns.
 */
import fs from 'node:fs';
import roaring from 'roaring';

const { RoaringBitmap32 } = roaring;
type Bitmap = InstanceType<typeof RoaringBitmap32>;

export const SNAPSHOT_MAGIC = Buffer.from('SHKIDX03', 'latin1');
const CHUNK = 16 * 2 ** 20;

/** Receives the snapshot's bytes in order. */
export interface SnapshotSink {
  write(bytes: Uint8Array): void;
}

/** Gives the snapshot's bytes in order: fills `target` completely or throws (truncated file). */
export interface SnapshotSource {
  readInto(target: Uint8Array): void;
}

/** Buffers small writes; large ones (columns) go to the sink from their own memory. */
export class SnapshotWriter {
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  bytes = 0;

  constructor(private readonly sink: SnapshotSink) {}

  private room(n: number) {
    if (this.used + n > this.buffer.length) this.flush();
  }

  flush() {
    if (this.used) this.sink.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  raw(bytes: Uint8Array) {
    this.bytes += bytes.length;
    if (bytes.length > CHUNK / 4) {
      this.flush();
      this.sink.write(bytes);
      return;
    }
    this.room(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  u8(v: number) {
    this.room(1);
    this.buffer.writeUInt8(v, this.used++);
    this.bytes++;
  }

  u16(v: number) {
    this.room(2);
    this.buffer.writeUInt16LE(v, this.used);
    this.used += 2;
    this.bytes += 2;
  }

  u32(v: number) {
    this.room(4);
    this.buffer.writeUInt32LE(v, this.used);
    this.used += 4;
    this.bytes += 4;
  }

  i32(v: number) {
    this.room(4);
    this.buffer.writeInt32LE(v, this.used);
    this.used += 4;
    this.bytes += 4;
  }

  bitmap(b: Bitmap) {
    const bytes = b.serialize('portable');
    this.u32(bytes.length);
    this.raw(bytes);
  }

  /** A typed array's bytes (no copy). */
  column(a: Float64Array | Float32Array | Int32Array) {
    this.raw(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
}

export class SnapshotReader {
  private readonly scratch = Buffer.allocUnsafe(64 * 1024);
  /** A larger buffer for big bitmaps, kept while reading (grown as needed). */
  private big: Buffer | null = null;

  constructor(private readonly source: SnapshotSource) {}

  /** n bytes in a buffer that is only valid until the next read. */
  bytes(n: number): Buffer {
    let target: Buffer;
    if (n <= this.scratch.length) target = this.scratch.subarray(0, n);
    else {
      if (!this.big || this.big.length < n) this.big = Buffer.allocUnsafe(Math.max(n, 2 * (this.big?.length ?? 0)));
      target = this.big.subarray(0, n);
    }
    this.source.readInto(target);
    return target;
  }

  u8() {
    return this.bytes(1).readUInt8(0);
  }
  u16() {
    return this.bytes(2).readUInt16LE(0);
  }
  u32() {
    return this.bytes(4).readUInt32LE(0);
  }
  i32() {
    return this.bytes(4).readInt32LE(0);
  }

  bitmap(): Bitmap {
    return RoaringBitmap32.deserialize(this.bytes(this.u32()), 'portable');
  }

  /** Reads a column straight into a new typed array of n elements. */
  column<T extends Float64Array | Float32Array>(make: (n: number) => T, n: number): T {
    return this.into(make(n));
  }

  /** Reads a column into an existing typed array (all of it). */
  into<T extends Float64Array | Float32Array>(a: T): T {
    this.source.readInto(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    return a;
  }
}

/** Writes to a file descriptor (synchronously, see above). */
export function fileSink(fd: number): SnapshotSink {
  return {
    write(bytes) {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
    },
  };
}

/** Reads a file through a 16 MB buffer; large targets are read into directly. */
export function fileSource(fd: number): SnapshotSource {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let start = 0;
  let end = 0;
  const readFully = (target: Uint8Array, offset: number) => {
    while (offset < target.length) {
      const n = fs.readSync(fd, target, offset, target.length - offset, null);
      if (n === 0) throw new Error('search index snapshot: file ends early');
      offset += n;
    }
  };
  return {
    readInto(target) {
      let offset = 0;
      while (offset < target.length) {
        const rest = target.length - offset;
        if (start < end) {
          const n = Math.min(end - start, rest);
          target.set(buffer.subarray(start, start + n), offset);
          start += n;
          offset += n;
        } else if (rest >= CHUNK / 4) {
          readFully(target, offset);
          return;
        } else {
          start = 0;
          end = fs.readSync(fd, buffer, 0, buffer.length, null);
          if (end === 0) throw new Error('search index snapshot: file ends early');
        }
      }
    },
  };
}

/** Collects the bytes in memory (tests). */
export function memorySink(): SnapshotSink & { buffer(): Buffer } {
  const chunks: Buffer[] = [];
  return {
    write: (bytes) => void chunks.push(Buffer.from(bytes)),
    buffer: () => Buffer.concat(chunks),
  };
}

export function memorySource(buffer: Uint8Array): SnapshotSource {
  let at = 0;
  return {
    readInto(target) {
      if (at + target.length > buffer.length) throw new Error('search index snapshot: buffer ends early');
      target.set(buffer.subarray(at, at + target.length));
      at += target.length;
    },
  };
}
