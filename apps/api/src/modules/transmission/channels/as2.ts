import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { CommunicationProtocol, type As2Encryption } from '@shk/contracts';
import type { AppConfig } from '../../../config.ts';
import type { OutboundPolicy } from '../outbound.ts';
import { PermanentTransmissionError, type OrderTransmitter } from '../transmission.types.ts';
import { requireWorkflow } from './connection.ts';
import { checkMdnReport, readSignedMdn } from './as2-mdn.ts';

export interface As2Identity {
  as2Id: string;
  keyPem: string;
  certPem: string;
}

/**
 * The platform's AS2 identity: AS2_IDENTIFIER (default SHKPORTAL) and a signing key with a self-signed
 * certificate created once per installation and kept in PostgreSQL (settings.shared, transmission/shared-keys.ts);
 * a supplier gets the certificate from the operator. AS2_KEY_FILE / AS2_CERT_FILE point to a CA-issued pair instead.
 * Without either (a tool without database) a pair is created once per DATA_DIR.
 */
export function loadAs2Identity(dataDir: string, settings: AppConfig['as2']): As2Identity {
  const as2Id = settings.identifier;
  if (settings.keyFile && settings.certFile)
    return {
      as2Id,
      keyPem: fs.readFileSync(settings.keyFile, 'utf8'),
      certPem: fs.readFileSync(settings.certFile, 'utf8'),
    };
  if (settings.shared) return { as2Id, ...settings.shared };
  const existing = as2KeysInDataDir(dataDir);
  if (existing) return { as2Id, ...existing };
  const created = createAs2KeyPair(as2Id);
  const dir = path.join(dataDir, 'transmission');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'as2-key.pem'), created.keyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'as2-cert.pem'), created.certPem);
  return { as2Id, ...created };
}

/** The key pair a single-node installation created in DATA_DIR/transmission before it moved into PostgreSQL. */
export function as2KeysInDataDir(dataDir: string): { keyPem: string; certPem: string } | null {
  const dir = path.join(dataDir, 'transmission');
  const keyFile = path.join(dir, 'as2-key.pem');
  const certFile = path.join(dir, 'as2-cert.pem');
  if (!fs.existsSync(keyFile) || !fs.existsSync(certFile)) return null;
  return { keyPem: fs.readFileSync(keyFile, 'utf8'), certPem: fs.readFileSync(certFile, 'utf8') };
}

/** A new RSA signing key with a self-signed certificate (five years) naming the platform's AS2 id. */
export function createAs2KeyPair(as2Id: string): { keyPem: string; certPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = crypto.randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 5 * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: as2Id },
    { name: 'organizationName', value: 'SHK-Bestellportal' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { keyPem, certPem: forge.pki.certificateToPem(cert) };
}

/**
 * Our signing key for node-forge's SignedData: forge hands over the digest of the signed attributes and
 * Node's OpenSSL does the RSA operation (RSASSA-PKCS1-v1_5 over the DigestInfo): forge's own RSA in
 * JavaScript takes about 70 ms per signature, which would cap AS2 at ~14 messages/s per process.
 */
function nodeSigningKey(keyPem: string) {
  const key = crypto.createPrivateKey(keyPem);
  return {
    sign(md: forge.md.MessageDigest) {
      const digestInfo = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [
        forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [
          forge.asn1.create(
            forge.asn1.Class.UNIVERSAL,
            forge.asn1.Type.OID,
            false,
            forge.asn1.oidToDer(forge.pki.oids[md.algorithm]).getBytes(),
          ),
          forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.NULL, false, ''),
        ]),
        forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.OCTETSTRING, false, md.digest().getBytes()),
      ]);
      const der = Buffer.from(forge.asn1.toDer(digestInfo).getBytes(), 'binary');
      return crypto.privateEncrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, der).toString('binary');
    },
  };
}

/** Parsed key and certificate per identity (parsing a PEM certificate with forge costs milliseconds). */
let parsedIdentity: { keyPem: string; key: ReturnType<typeof nodeSigningKey>; cert: forge.pki.Certificate } | null =
  null;
function parsed(identity: As2Identity) {
  if (parsedIdentity?.keyPem !== identity.keyPem)
    parsedIdentity = {
      keyPem: identity.keyPem,
      key: nodeSigningKey(identity.keyPem),
      cert: forge.pki.certificateFromPem(identity.certPem),
    };
  return parsedIdentity;
}

export interface As2Payload {
  body: Buffer;
  contentType: string;
}

/** The signed MIME body (multipart/signed, detached PKCS#7 over the entity) and the entity's MIC. */
export function signedAs2Body(
  identity: As2Identity,
  document: { fileName: string; mediaType: string; content: Buffer },
): As2Payload & { mic: string } {
  const entity = Buffer.concat([
    Buffer.from(
      `Content-Type: ${document.mediaType}\r\nContent-Transfer-Encoding: binary\r\nContent-Disposition: attachment; filename="${document.fileName}"\r\n\r\n`,
    ),
    document.content,
  ]);
  const { key, cert } = parsed(identity);
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(entity.toString('binary'));
  p7.addCertificate(cert);
  p7.addSigner({
    key: key as unknown as forge.pki.rsa.PrivateKey,
    certificate: cert,
    digestAlgorithm: forge.pki.oids.sha256,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType, value: forge.pki.oids.data },
      { type: forge.pki.oids.messageDigest },
      { type: forge.pki.oids.signingTime, value: new Date() as unknown as string },
    ],
  });
  p7.sign({ detached: true });
  const signature = Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary').toString('base64');
  const boundary = `----=_shk_${crypto.randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\n`),
    entity,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: application/pkcs7-signature; name="smime.p7s"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="smime.p7s"\r\n\r\n${signature.replace(/.{76}/g, '$&\r\n')}\r\n--${boundary}--\r\n`,
    ),
  ]);
  return {
    body,
    contentType: `multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256; boundary="${boundary}"`,
    mic: `${crypto.createHash('sha256').update(entity).digest('base64')}, sha-256`,
  };
}

const ciphers: Record<Exclude<As2Encryption, 'none'>, { oid: string; keyBytes: number }> = {
  aes128: { oid: forge.pki.oids['aes128-CBC'], keyBytes: 16 },
  aes256: { oid: forge.pki.oids['aes256-CBC'], keyBytes: 32 },
};

/** Partner certificates parsed by forge, by PEM (a handful of workflows). */
const partnerCertificates = new Map<string, forge.pki.Certificate>();
function forgeCertificate(pem: string) {
  let cert = partnerCertificates.get(pem);
  if (!cert) {
    cert = forge.pki.certificateFromPem(pem);
    if (partnerCertificates.size > 100) partnerCertificates.clear();
    partnerCertificates.set(pem, cert);
  }
  return cert;
}

/**
 * The signed message encrypted to the partner's certificate (RFC 5751 §3.3 application/pkcs7-mime
 * enveloped-data; RSA key transport, AES-CBC content encryption; binary body as AS2 sends it).
 */
export function encryptedAs2Body(
  signed: As2Payload,
  partnerCertificatePem: string,
  encryption: As2Encryption,
): As2Payload {
  if (encryption === 'none') return signed;
  const cipher = ciphers[encryption];
  const inner = Buffer.concat([Buffer.from(`Content-Type: ${signed.contentType}\r\n\r\n`), signed.body]);
  const p7 = forge.pkcs7.createEnvelopedData();
  p7.addRecipient(forgeCertificate(partnerCertificatePem));
  p7.content = forge.util.createBuffer(inner.toString('binary'));
  p7.encrypt(forge.util.createBuffer(crypto.randomBytes(cipher.keyBytes).toString('binary')), cipher.oid);
  return {
    body: Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary'),
    contentType: 'application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"',
  };
}

/** Where asynchronous MDNs are recorded (as2_messages), shared by the sender and the MDN route. */
export interface As2MdnStore {
  /** Records a message that awaits an asynchronous MDN; 'processed' when an earlier attempt was already acknowledged. */
  expect(message: {
    messageId: string;
    supplierOrderId: number;
    workflowId: number;
    mic: string;
  }): Promise<'awaiting' | 'processed'>;
  outcome(messageId: string): Promise<{ state: 'awaiting' | 'processed' | 'failed'; error: string | null } | null>;
}

export interface As2Options {
  /** Our URL for asynchronous MDNs (Receipt-Delivery-Option). */
  mdnUrl: string;
  store: As2MdnStore | null;
  /** How long an attempt waits for an asynchronous MDN before it is retried. */
  asyncWaitMs: number;
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function awaitAsyncMdn(store: As2MdnStore, messageId: string, waitMs: number) {
  const until = Date.now() + waitMs;
  for (;;) {
    const outcome = await store.outcome(messageId);
    if (outcome?.state === 'processed') return;
    if (outcome?.state === 'failed') throw new Error(outcome.error ?? 'AS2: MDN meldet einen Fehler');
    if (Date.now() >= until)
      throw new Error(`AS2: keine asynchrone MDN innerhalb von ${Math.round(waitMs / 1000)} s erhalten`);
    await sleep(Math.min(250, Math.max(10, until - Date.now())));
  }
}

/**
 * As2 (3): per document a signed message, encrypted to the partner's certificate unless the workflow
 * says 'none', to out_as2_url with AS2-From (platform), AS2-To (out_as2_identifier) and a Message-ID
 * stable per order and document (the receiver's duplicate check). A signed MDN is requested, on the same
 * connection or (workflow setting) later to our MDN URL; its signature must verify against the partner's
 * certificate, it must report "processed" and carry our MIC. The workflow of protocol AS2 holds the
 * partner's certificate and these settings.
 */
/**
 * AS2 to the supplier's partner. The POST goes through the outbound policy like every other channel: an internal
 * target is refused unless allowlisted, and a redirect is an error, never followed.
 */
export function as2Transmitter(
  identity: () => As2Identity,
  options: As2Options,
  policy: Pick<OutboundPolicy, 'fetch'>,
): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.As2,
    async transmit({ order, target, documents, idempotencyKey }) {
      if (!target.as2Url || !target.as2Identifier)
        throw new PermanentTransmissionError('AS2-URL oder AS2-Kennung des Lieferanten fehlt');
      const workflow = requireWorkflow(target, 'AS2');
      const as2 = workflow.as2;
      if (workflow.protocolId !== CommunicationProtocol.As2 || !as2)
        throw new PermanentTransmissionError(`Workflow „${workflow.name}“ ist kein AS2-Workflow`);
      if (!as2.partnerCertificate)
        throw new PermanentTransmissionError(`Workflow „${workflow.name}“ hat kein Zertifikat des AS2-Partners`);
      const asyncMdn = as2.mdnMode === 'async';
      if (asyncMdn && !options.store)
        throw new PermanentTransmissionError('Asynchrone MDNs sind in diesem Prozess nicht eingerichtet');
      const me = identity();
      const ids: string[] = [];
      for (const document of documents) {
        const messageId = `<${idempotencyKey}-${document.formatId}@${me.as2Id}>`;
        const signed = signedAs2Body(me, document);
        if (asyncMdn) {
          const state = await options.store!.expect({
            messageId,
            supplierOrderId: order.id,
            workflowId: workflow.id,
            mic: signed.mic,
          });
          // An earlier attempt's MDN arrived after that attempt gave up waiting: the partner has it.
          if (state === 'processed') {
            ids.push(messageId);
            continue;
          }
        }
        const payload = encryptedAs2Body(signed, as2.partnerCertificate, as2.encryption);
        const response = await policy.fetch(
          target.as2Url,
          {
            method: 'POST',
            body: new Uint8Array(payload.body),
            headers: {
              'content-type': payload.contentType,
              'as2-version': '1.2',
              'as2-from': me.as2Id,
              'as2-to': target.as2Identifier,
              'message-id': messageId,
              subject: document.fileName,
              'mime-version': '1.0',
              'disposition-notification-to': me.as2Id,
              'disposition-notification-options':
                'signed-receipt-protocol=required, pkcs7-signature; signed-receipt-micalg=required, sha-256',
              ...(asyncMdn ? { 'receipt-delivery-option': options.mdnUrl } : {}),
            },
          },
          options.timeoutMs,
        );
        const body = Buffer.from(await response.arrayBuffer());
        if (!response.ok) throw new Error(`AS2: HTTP ${response.status} von ${target.as2Url}`);
        if (asyncMdn) await awaitAsyncMdn(options.store!, messageId, options.asyncWaitMs);
        else
          checkMdnReport(
            readSignedMdn(response.headers.get('content-type') ?? '', body, as2.partnerCertificate),
            messageId,
            signed.mic,
          );
        ids.push(messageId);
      }
      return { remoteNames: [target.as2Url], messageId: ids.join(' ') };
    },
  };
}
