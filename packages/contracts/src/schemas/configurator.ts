import { z } from 'zod';

/**
 * Kitchen-manufacturer configurator (docs/configurator.md): the home slide with a signed hand-off to the
 * manufacturer's configurator and the verified return into /add-to-cart. Texts where the spec is silent
 * are ours.
 */
export const configuratorLimits = {
  /** Lifetime of the hand-off token the portal signs (the configurator must accept it within this time). */
  handOffTokenSeconds: 15 * 60,
  /** The latest expiry a return may carry (now + this): a configurator cannot issue returns valid for days. */
  returnMaxLifetimeSeconds: 60 * 60,
} as const;

/** What the home slideshow needs: whether the caller sees the configurator slide and where it leads. */
export const ConfiguratorSlide = z
  .object({
    visible: z.boolean(),
    supplierBpNumber: z.string().nullable(),
    supplierName: z.string().nullable(),
    /** The configurator URL with the signed hand-off token (`token`) and the return address (`returnUrl`). */
    url: z.string().nullable(),
    /** Expiry of the token in the URL (ISO), null without token. */
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'ConfiguratorSlide' });
export type ConfiguratorSlide = z.infer<typeof ConfiguratorSlide>;

/**
 * The query of the configurator's return (/add-to-cart?…), sent as body to the verification. Signature
 * fields are optional here so that an unsigned return gets its own message instead of a field list.
 */
export const ConfiguratorReturnRequest = z.object({
  articleNumber: z.string().trim().min(1).max(100),
  supplierId: z.string().trim().min(1).max(20),
  partner: z.string().trim().max(20).optional(),
  expires: z.string().trim().max(20).optional(),
  signature: z.string().trim().max(200).optional(),
});
export type ConfiguratorReturnRequest = z.infer<typeof ConfiguratorReturnRequest>;

export const ConfiguratorReturnVerified = z
  .object({ articleNumber: z.string(), supplierId: z.string(), partner: z.string() })
  .meta({ id: 'ConfiguratorReturnVerified' });
export type ConfiguratorReturnVerified = z.infer<typeof ConfiguratorReturnVerified>;

/** Canonical text the configurator signs for a return (HMAC-SHA256, hex): fields joined by line feeds. */
export const configuratorReturnSigningText = (r: {
  articleNumber: string;
  supplierId: string;
  partner: string;
  expires: string;
}) => ['return', r.articleNumber, r.supplierId, r.partner, r.expires].join('\n');

/**
 * Canonical text the portal signs for the hand-off token `partner.supplier.expires.signature`
 * (HMAC-SHA256 with the client secret, hex).
 */
export const configuratorHandOffSigningText = (t: { partner: string; supplier: string; expires: string }) =>
  ['handoff', t.partner, t.supplier, t.expires].join('\n');
