import Busboy, { type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { IncomingHttpHeaders } from 'node:http';

/** Fields an OCI entry form may carry at most (a real one has about a dozen). */
const OCI_MULTIPART_MAX_FIELDS = 200;

/** The multipart body could not be read (broken boundary, truncated part …). */
export class MultipartRefused extends Error {}

/**
 * The fields of an OCI entry posted as multipart/form-data (SAP does so at times): name and raw value bytes, in
 * order, so that the character set is chosen as for a urlencoded form (oci-fields.ts). Values are read as bytes
 * (latin1 is byte-exact); a part that declares its own character set is re-encoded in it. File parts are skipped.
 */
export function readMultipartPairs(body: Buffer, headers: IncomingHttpHeaders): Promise<[string, Buffer][]> {
  return new Promise((resolve, reject) => {
    const pairs: [string, Buffer][] = [];
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: headers as BusboyHeaders,
        defCharset: 'latin1',
        limits: { fields: OCI_MULTIPART_MAX_FIELDS, files: OCI_MULTIPART_MAX_FIELDS },
      });
    } catch {
      reject(new MultipartRefused());
      return;
    }
    parser.on('field', (name: string, value: string, _nameTruncated, _valueTruncated, _encoding, mime: string) => {
      const declared = /charset\s*=\s*"?([^";\s]+)/i.exec(mime ?? '')?.[1]?.toLowerCase();
      const bytes = declared && /^utf-?8$/.test(declared) ? Buffer.from(value, 'utf8') : Buffer.from(value, 'latin1');
      pairs.push([name.trim().toUpperCase(), bytes]);
    });
    parser.on('file', (_name: string, stream: NodeJS.ReadableStream) => stream.resume());
    parser.on('error', () => reject(new MultipartRefused()));
    parser.on('finish', () => resolve(pairs));
    parser.end(body);
  });
}
