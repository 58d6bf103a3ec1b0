/**
 * Reading AS2 receipts (MDNs, RFC 4130 §7 / RFC 8098): the MIME structure, the CMS signature over the
 * report (checked against the partner's certificate with node-forge's ASN.1 reader and Node's crypto
 * verify) and the disposition fields.
 */
import crypto from 'node:crypto';
import forge from 'node-forge';
import { certificatePublicKey } from '../certificates.ts';

const { asn1 } = forge;

export interface MimeEntity {
  headers: Map<string, string>;
  body: Buffer;
}

/** Splits header block and body (CRLF or LF line ends; folded header lines are joined). */
export function parseMimeEntity(raw: Buffer): MimeEntity {
  let end = raw.indexOf('\r\n\r\n');
  let skip = 4;
  const lf = raw.indexOf('\n\n');
  if (end < 0 || (lf >= 0 && lf < end)) [end, skip] = [lf, 2];
  if (end < 0) return { headers: new Map(), body: raw };
  const headers = new Map<string, string>();
  const lines = raw
    .subarray(0, end)
    .toString('latin1')
    .split(/\r?\n(?![ \t])/);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        line
          .slice(colon + 1)
          .replace(/\s+/g, ' ')
          .trim(),
      );
  }
  return { headers, body: raw.subarray(end + skip) };
}

export const headerParameter = (value: string | undefined, name: string) =>
  value
    ? new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value)?.slice(1).find(Boolean)
    : undefined;

/**
 * The body parts of a multipart entity as exact bytes (RFC 2046: the line break before a delimiter
 * belongs to the delimiter). OpenSSL writes LF or CRLF; both are read.
 */
export function multipartParts(body: Buffer, boundary: string): Buffer[] {
  const delimiter = `--${boundary}`;
  const starts: { at: number; lineStart: number }[] = [];
  let from = 0;
  for (;;) {
    const at = body.indexOf(delimiter, from);
    if (at < 0) break;
    const atLineStart = at === 0 || body[at - 1] === 0x0a;
    if (atLineStart) starts.push({ at, lineStart: at >= 2 && body[at - 2] === 0x0d ? at - 2 : at > 0 ? at - 1 : 0 });
    from = at + delimiter.length;
  }
  const parts: Buffer[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const lineEnd = body.indexOf(0x0a, starts[i].at);
    if (lineEnd < 0) break;
    parts.push(body.subarray(lineEnd + 1, starts[i + 1].lineStart));
  }
  return parts;
}

const digestNames: Record<string, string> = {
  [forge.pki.oids.sha1]: 'sha1',
  [forge.pki.oids.sha256]: 'sha256',
  [forge.pki.oids.sha384]: 'sha384',
  [forge.pki.oids.sha512]: 'sha512',
};
const MESSAGE_DIGEST = forge.pki.oids.messageDigest;
const RSASSA_PSS = '1.2.840.113549.1.1.10';

type Node = forge.asn1.Asn1;
const children = (node: Node) => (Array.isArray(node.value) ? (node.value as Node[]) : []);
const isContext = (node: Node, tag: number) => node.tagClass === asn1.Class.CONTEXT_SPECIFIC && node.type === tag;
const oidOf = (node: Node | undefined) => (node ? asn1.derToOid(children(node)[0]?.value as string) : '');

/** The SignerInfos of a DER CMS SignedData (ContentInfo → [0] → SignedData → last SET). */
function signerInfos(der: Buffer): Node[] {
  const contentInfo = asn1.fromDer(forge.util.createBuffer(der.toString('binary')));
  if (asn1.derToOid(children(contentInfo)[0]?.value as string) !== forge.pki.oids.signedData)
    throw new Error('keine CMS-Signatur (SignedData)');
  const signedData = children(children(contentInfo)[1])[0];
  const infos = children(signedData).at(-1);
  if (!infos || infos.type !== asn1.Type.SET) throw new Error('CMS-Signatur ohne Unterzeichner');
  return children(infos);
}

/** Checks one SignerInfo over `content` with the partner's public key (RFC 5652 §5.4). */
function signerMatches(info: Node, content: Buffer, publicKey: crypto.KeyObject): boolean {
  const fields = children(info);
  const digestAlgorithm = digestNames[oidOf(fields[2])];
  if (!digestAlgorithm) throw new Error(`Hash-Verfahren ${oidOf(fields[2])} nicht unterstützt`);
  const signedAttributes = fields.find((f) => isContext(f, 0));
  const rest = fields.slice(fields.indexOf(signedAttributes ?? fields[2]) + 1);
  const signatureAlgorithm = oidOf(rest[0]);
  const signature = Buffer.from(rest[1]?.value as string, 'binary');
  let signedBytes = content;
  if (signedAttributes) {
    const digest = crypto.createHash(digestAlgorithm).update(content).digest();
    const messageDigest = children(signedAttributes).find(
      (a) => asn1.derToOid(children(a)[0]?.value as string) === MESSAGE_DIGEST,
    );
    const stated = messageDigest ? children(children(messageDigest)[1])[0]?.value : undefined;
    if (typeof stated !== 'string' || !Buffer.from(stated, 'binary').equals(digest)) return false;
    // The signature covers the attributes DER-encoded as SET OF (not the [0] IMPLICIT tag they travel with).
    const asSet = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, children(signedAttributes));
    signedBytes = Buffer.from(asn1.toDer(asSet).getBytes(), 'binary');
  }
  const pss = signatureAlgorithm === RSASSA_PSS;
  return crypto.verify(
    digestAlgorithm,
    signedBytes,
    pss
      ? {
          key: publicKey,
          padding: crypto.constants.RSA_PKCS1_PSS_PADDING,
          saltLength: crypto.constants.RSA_PSS_SALTLEN_AUTO,
        }
      : publicKey,
    signature,
  );
}

/** True when a signer of the detached CMS signature `signatureDer` over `content` holds the certificate's key. */
export function signedByCertificate(content: Buffer, signatureDer: Buffer, certificatePem: string): boolean {
  const publicKey = certificatePublicKey(certificatePem);
  return signerInfos(signatureDer).some((info) => {
    try {
      return signerMatches(info, content, publicKey);
    } catch {
      return false;
    }
  });
}

/**
 * MIC algorithm names as RFC 5751 §3.4.3.2 (micalg: sha-256) and RFC 4130 §7.3.1 (sha256, sha1) and
 * other AS2 stacks (SHA-256, SHA1) write them: compared without case and hyphens.
 */
export const normalizeMicAlgorithm = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, '');

/** 'base64, algorithm' → its parts (the value's whitespace is not significant). */
export function parseMic(field: string): { value: string; algorithm: string } | null {
  const comma = field.lastIndexOf(',');
  if (comma < 0) return null;
  return { value: field.slice(0, comma).replace(/\s/g, ''), algorithm: normalizeMicAlgorithm(field.slice(comma + 1)) };
}

export const micsEqual = (received: string, expected: string) => {
  const a = parseMic(received);
  const b = parseMic(expected);
  return !!a && !!b && a.value === b.value && a.algorithm === b.algorithm;
};

export interface MdnReport {
  originalMessageId: string | null;
  disposition: string;
  receivedContentMic: string | null;
}

/** The message/disposition-notification fields of a multipart/report entity. */
export function readDispositionNotification(report: MimeEntity): MdnReport {
  const boundary = headerParameter(report.headers.get('content-type'), 'boundary');
  const parts = boundary ? multipartParts(report.body, boundary) : [report.body];
  const notification = parts
    .map(parseMimeEntity)
    .find((p) => /message\/disposition-notification/i.test(p.headers.get('content-type') ?? ''));
  const text = (notification?.body ?? report.body).toString('latin1');
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.+)$`, 'im').exec(text)?.[1]?.trim() ?? null;
  const disposition = field('Disposition');
  if (!disposition) throw new Error('AS2: keine MDN in der Antwort');
  return {
    originalMessageId: field('Original-Message-ID'),
    disposition,
    receivedContentMic: field('Received-Content-MIC'),
  };
}

const canonicalLineEnds = (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');

/**
 * A signed MDN (multipart/signed: the report and its detached CMS signature): checks the signature with
 * the partner's certificate and returns the report's fields. Refuses unsigned receipts (we ask for
 * signed ones) and receipts signed with another key.
 */
export function readSignedMdn(contentType: string, body: Buffer, partnerCertificatePem: string): MdnReport {
  if (!/^\s*multipart\/signed/i.test(contentType)) {
    if (/multipart\/report/i.test(contentType)) throw new Error('AS2: MDN ist nicht signiert');
    throw new Error('AS2: keine MDN in der Antwort');
  }
  const boundary = headerParameter(contentType, 'boundary');
  const [report, signaturePart] = boundary ? multipartParts(body, boundary) : [];
  if (!report || !signaturePart) throw new Error('AS2: signierte MDN unvollständig');
  const signature = parseMimeEntity(signaturePart);
  const encoding = signature.headers.get('content-transfer-encoding') ?? '';
  const der = /base64/i.test(encoding)
    ? Buffer.from(signature.body.toString('latin1').replace(/\s/g, ''), 'base64')
    : signature.body;
  let valid: boolean;
  try {
    // A partner that signs in text mode signs the canonical CRLF form but may send LF line ends.
    valid =
      signedByCertificate(report, der, partnerCertificatePem) ||
      signedByCertificate(canonicalLineEnds(report), der, partnerCertificatePem);
  } catch (error) {
    throw new Error(`AS2: Signatur der MDN unlesbar (${(error as Error).message})`);
  }
  if (!valid) throw new Error('AS2: Signatur der MDN passt nicht zum Zertifikat des Partners');
  return readDispositionNotification(parseMimeEntity(report));
}

/** The MDN must name our Message-ID, report "processed" and carry the MIC we computed. */
export function checkMdnReport(report: MdnReport, messageId: string, mic: string) {
  if (report.originalMessageId && report.originalMessageId !== messageId)
    throw new Error(`AS2: MDN gehört zu ${report.originalMessageId}`);
  // 'processed/warning: duplicate-document' is a receipt too (a repeat of a message the partner has).
  if (!/;\s*processed\s*(\/\s*warning\b.*)?$/i.test(report.disposition))
    throw new Error(`AS2: MDN meldet ${report.disposition}`);
  if (report.receivedContentMic && !micsEqual(report.receivedContentMic, mic))
    throw new Error('AS2: MIC der MDN stimmt nicht (Inhalt verändert)');
}
