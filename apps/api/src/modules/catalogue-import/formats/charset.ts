import fs from 'node:fs';
import iconv from 'iconv-lite';

/** The encoding an XML declaration names (UTF-8 when none, as XML 1.0 says). */
export function xmlDeclaredEncoding(head: Buffer): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  const declaration = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.toString('latin1'));
  return declaration ? declaration[1].toLowerCase() : 'utf-8';
}

export async function readHead(file: string, bytes = 4096): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Chunks of the file decoded from the given charset, read in 1 MB steps (never the whole file). */
export async function* decodedChunks(file: string, encoding: string): AsyncGenerator<string> {
  if (!iconv.encodingExists(encoding)) throw new Error(`Zeichensatz ${encoding} wird nicht unterstützt.`);
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    const text = decoder.write(chunk as Buffer);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}
