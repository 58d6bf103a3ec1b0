import crypto from 'node:crypto';
import type { CertificateInfo } from '@shk/contracts';

const DAY_MS = 86_400_000;

/**
 * Reads an uploaded X.509 certificate: PEM text, or DER bytes (as a base64 string from the JSON API or
 * as a Buffer). Returns the certificate as PEM, or null when it is neither.
 */
export function normalizeCertificate(input: string | Buffer): string | null {
  const candidates: Buffer[] = [];
  if (Buffer.isBuffer(input)) candidates.push(input);
  else {
    const text = input.trim();
    if (text.includes('-----BEGIN CERTIFICATE-----')) candidates.push(Buffer.from(text));
    else if (/^[A-Za-z0-9+/=\s]+$/.test(text)) candidates.push(Buffer.from(text.replace(/\s/g, ''), 'base64'));
  }
  for (const bytes of candidates) {
    try {
      return new crypto.X509Certificate(bytes).toString();
    } catch {
      // not a certificate in this encoding
    }
  }
  return null;
}

/** 'CN=x\nO=y' (how Node prints names) as one line. */
const oneLine = (name: string) =>
  name
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');

/** Subject, issuer, SHA-256 fingerprint and validity of a PEM certificate, as staff see them. */
export function certificateInfo(pem: string, now = new Date()): CertificateInfo {
  const cert = new crypto.X509Certificate(pem);
  const validTo = new Date(cert.validTo);
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    fingerprintSha256: cert.fingerprint256,
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: validTo.toISOString(),
    daysLeft: Math.floor((validTo.getTime() - now.getTime()) / DAY_MS),
  };
}

/** The public key of a PEM certificate for signature checks. */
export const certificatePublicKey = (pem: string) => new crypto.X509Certificate(pem).publicKey;
