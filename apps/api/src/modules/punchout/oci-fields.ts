const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/** Percent-decoding to bytes, so the character set can be chosen after the whole field is known. */
function percentBytes(s: string): Buffer {
  return Buffer.from(
    s.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
}

const isLatin1 = (charset: string | null | undefined) =>
  Boolean(charset && /^(iso-?8859-1|latin-?1|windows-1252|cp1252)$/i.test(charset.trim()));

export interface OciRequestFields {
  /** Field names upper-cased (OCI names are upper case; '~OkCode' becomes '~OKCODE'). */
  fields: Map<string, string>;
  charset: 'UTF-8' | 'ISO-8859-1';
}

/**
 * The OCI entry's fields from the query string and a urlencoded body (raw bytes) or the fields of a multipart body
 * (`bodyPairs`: names and raw value bytes, oci-multipart.ts). The character set follows the
 * caller: ISO-8859-1 when the request says so (Content-Type charset, or a CHARSET / ~CHARSET / _charset_ field) or
 * when its bytes are not UTF-8; UTF-8 otherwise. The first occurrence of a field wins.
 */
export function readOciFields(
  query: string,
  body: Buffer | null,
  contentType: string | undefined,
  bodyPairs: [string, Buffer][] = [],
): OciRequestFields {
  const pairs: [string, Buffer][] = [];
  for (const source of [query, body ? body.toString('latin1') : '']) {
    for (const pair of source.split('&')) {
      if (!pair) continue;
      const eq = pair.indexOf('=');
      const name = percentBytes(eq < 0 ? pair : pair.slice(0, eq))
        .toString('latin1')
        .trim()
        .toUpperCase();
      pairs.push([name, percentBytes(eq < 0 ? '' : pair.slice(eq + 1))]);
    }
  }
  pairs.push(...bodyPairs);
  const declared =
    /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ??
    pairs.find(([n]) => n === 'CHARSET' || n === '~CHARSET' || n === '_CHARSET_')?.[1].toString('latin1');
  let charset: OciRequestFields['charset'] = isLatin1(declared) ? 'ISO-8859-1' : 'UTF-8';
  if (charset === 'UTF-8') {
    try {
      for (const [, bytes] of pairs) utf8.decode(bytes);
    } catch {
      charset = 'ISO-8859-1';
    }
  }
  const fields = new Map<string, string>();
  for (const [name, bytes] of pairs) {
    if (!fields.has(name)) fields.set(name, (charset === 'UTF-8' ? utf8 : latin1).decode(bytes).trim());
  }
  return { fields, charset };
}
