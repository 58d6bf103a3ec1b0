import { useState } from 'react';

interface SupplierLogoProps {
  bpNumber: string;
  name: string;
  /** Pixel box the server resizes into (48, 96, 160 or 320); twice the shown height keeps it sharp. */
  size?: 48 | 96 | 160 | 320;
  height?: number;
}

/** Suppliers whose logo failed in this page load: they are not asked again (one 404 per supplier, not per card). */
const missingLogos = new Set<string>();

/**
 * A supplier's logo as the API serves it (resized, cached). A supplier without a logo (404) shows nothing: the
 * image is removed, so the name beside it starts where the logo would have, without an empty gap.
 */
export function SupplierLogo({ bpNumber, name, size = 96, height = 24 }: SupplierLogoProps) {
  const [failed, setFailed] = useState(() => missingLogos.has(bpNumber));
  if (failed) return null;
  // inline-block: Chrome draws a broken inline image as its alt text and ignores the size until onError hides it.
  const box = { height, width: height * 4, verticalAlign: 'middle', display: 'inline-block' } as const;
  return (
    <img
      src={`/v1/Suppliers/${encodeURIComponent(bpNumber)}/logo?size=${size}`}
      alt={`Logo ${name}`}
      loading="lazy"
      onError={() => {
        missingLogos.add(bpNumber);
        setFailed(true);
      }}
      width={box.width}
      height={box.height}
      style={{ ...box, objectFit: 'contain', objectPosition: 'left center' }}
      data-testid="supplier-logo"
    />
  );
}
