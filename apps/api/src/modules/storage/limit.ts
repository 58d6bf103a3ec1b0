import { Transform, type TransformCallback } from 'node:stream';
import { StorageLimitError } from './storage.ts';

/** Passes bytes through until more than `maxBytes` have come; then fails with StorageLimitError. */
export function byteLimit(maxBytes: number | undefined) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (maxBytes !== undefined && seen > maxBytes) callback(new StorageLimitError(maxBytes));
      else callback(null, chunk);
    },
  });
}
