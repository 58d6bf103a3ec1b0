import { createHmac, timingSafeEqual } from 'node:crypto';
import { configuratorHandOffSigningText, configuratorReturnSigningText } from '@shk/contracts';

/**
 * HMAC-SHA256 signatures of the kitchen-configurator hand-off and return (docs/configurator.md). Hex,
 * lowercase; compared in constant time.
 */
export function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures (false for different lengths or non-hex input). */
export function sameSignature(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex) || givenHex.length !== expectedHex.length) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex.toLowerCase(), 'hex'));
}

export interface HandOff {
  partner: string;
  supplier: string;
  /** Unix seconds. */
  expires: number;
}

/** The hand-off token `partner.supplier.expires.signature`. */
export function signHandOff(secret: string, handOff: HandOff): string {
  const fields = { partner: handOff.partner, supplier: handOff.supplier, expires: String(handOff.expires) };
  return [
    fields.partner,
    fields.supplier,
    fields.expires,
    hmacHex(secret, configuratorHandOffSigningText(fields)),
  ].join('.');
}

/** Reads and checks a hand-off token (what a configurator does); null when malformed, forged or expired. */
export function verifyHandOff(secret: string, token: string, nowSeconds: number): HandOff | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [partner, supplier, expires, signature] = parts;
  if (!/^\d{1,20}$/.test(partner) || !/^\d{1,20}$/.test(supplier) || !/^\d{1,12}$/.test(expires)) return null;
  const expected = hmacHex(secret, configuratorHandOffSigningText({ partner, supplier, expires }));
  if (!sameSignature(expected, signature)) return null;
  if (Number(expires) <= nowSeconds) return null;
  return { partner, supplier, expires: Number(expires) };
}

export interface SignedReturn {
  articleNumber: string;
  supplierId: string;
  partner: string;
  /** Unix seconds, as text (exactly as in the URL). */
  expires: string;
}

/** The signature a configurator puts on its return (used by tests and the local demo configurator). */
export function signReturn(secret: string, r: SignedReturn): string {
  return hmacHex(secret, configuratorReturnSigningText(r));
}

export function returnSignatureMatches(secret: string, r: SignedReturn, signature: string): boolean {
  return sameSignature(signReturn(secret, r), signature);
}
