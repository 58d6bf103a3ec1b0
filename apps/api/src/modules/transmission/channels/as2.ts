import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { CommunicationProtocol } from '@shk/contracts';
import type { AppConfig } from '../../../config.ts';
import { PermanentTransmissionError, type OrderTransmitter } from '../transmission.types.ts';

export interface As2Identity {
  as2Id: string;
  keyPem: string;
  certPem: string;
}

/**
 * The platform's AS2 identity: AS2_IDENTIFIER (default SHKPORTAL) and a signing key with a self-signed
 * certificate created once per DATA_DIR (`transmission/as2-key.pem`, `as2-cert.pem`); a supplier gets
 * the certificate from the operator. AS2_KEY_FILE / AS2_CERT_FILE point to a CA-issued pair instead.
 */
export function loadAs2Identity(dataDir: string, settings: AppConfig['as2']): As2Identity {
  const as2Id = settings.identifier;
  if (settings.keyFile && settings.certFile)
    return {
      as2Id,
      keyPem: fs.readFileSync(settings.keyFile, 'utf8'),
      certPem: fs.readFileSync(settings.certFile, 'utf8'),
    };
  const dir = path.join(dataDir, 'transmission');
  const keyFile = path.join(dir, 'as2-key.pem');
  const certFile = path.join(dir, 'as2-cert.pem');
  if (!fs.existsSync(certFile)) {
    fs.mkdirSync(dir, { recursive: true });
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
    fs.writeFileSync(keyFile, keyPem, { mode: 0o600 });
    fs.writeFileSync(certFile, forge.pki.certificateToPem(cert));
  }
  return { as2Id, keyPem: fs.readFileSync(keyFile, 'utf8'), certPem: fs.readFileSync(certFile, 'utf8') };
}

/** The signed MIME body (multipart/signed, detached PKCS#7 over the entity) and the entity's MIC. */
export function signedAs2Body(
  identity: As2Identity,
  document: { fileName: string; mediaType: string; content: Buffer },
): { body: Buffer; contentType: string; mic: string } {
  const entity = Buffer.concat([
    Buffer.from(
      `Content-Type: ${document.mediaType}\r\nContent-Transfer-Encoding: binary\r\nContent-Disposition: attachment; filename="${document.fileName}"\r\n\r\n`,
    ),
    document.content,
  ]);
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(entity.toString('binary'));
  const cert = forge.pki.certificateFromPem(identity.certPem);
  p7.addCertificate(cert);
  p7.addSigner({
    key: forge.pki.privateKeyFromPem(identity.keyPem),
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

/** Reads a synchronous MDN: it must name our Message-ID, report "processed" and carry the MIC we computed. */
export function checkMdn(mdn: string, messageId: string, mic: string) {
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(mdn)?.[1]?.trim();
  const disposition = field('Disposition');
  if (!disposition) throw new Error('AS2: keine MDN in der Antwort');
  if (field('Original-Message-ID') && field('Original-Message-ID') !== messageId)
    throw new Error(`AS2: MDN gehört zu ${field('Original-Message-ID')}`);
  if (!/;\s*processed\s*$/i.test(disposition)) throw new Error(`AS2: MDN meldet ${disposition}`);
  const received = field('Received-Content-MIC');
  if (received && received.replace(/\s/g, '') !== mic.replace(/\s/g, ''))
    throw new Error('AS2: MIC der MDN stimmt nicht (Inhalt verändert)');
}

/**
 * As2 (3): a signed message per document to out_as2_url with AS2-From (platform), AS2-To
 * (out_as2_identifier) and a Message-ID stable per order and document (the receiver's duplicate
 * check); a synchronous signed-receipt MDN is requested and checked.
 */
export function as2Transmitter(identity: () => As2Identity, timeoutMs = 30_000): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.As2,
    async transmit({ target, documents, idempotencyKey }) {
      if (!target.as2Url || !target.as2Identifier)
        throw new PermanentTransmissionError('AS2-URL oder AS2-Kennung des Lieferanten fehlt');
      const me = identity();
      const ids: string[] = [];
      for (const document of documents) {
        const messageId = `<${idempotencyKey}-${document.formatId}@${me.as2Id}>`;
        const signed = signedAs2Body(me, document);
        const response = await fetch(target.as2Url, {
          method: 'POST',
          signal: AbortSignal.timeout(timeoutMs),
          body: new Uint8Array(signed.body),
          headers: {
            'content-type': signed.contentType,
            'as2-version': '1.2',
            'as2-from': me.as2Id,
            'as2-to': target.as2Identifier,
            'message-id': messageId,
            subject: document.fileName,
            'mime-version': '1.0',
            'disposition-notification-to': me.as2Id,
            'disposition-notification-options':
              'signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256',
          },
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`AS2: HTTP ${response.status} von ${target.as2Url}`);
        checkMdn(text, messageId, signed.mic);
        ids.push(messageId);
      }
      return { remoteNames: [target.as2Url], messageId: ids.join(' ') };
    },
  };
}
