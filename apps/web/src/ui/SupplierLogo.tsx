import { useState } from 'react';

interface SupplierLogoProps {
  bpNumber: string;
  name: string;
  /** Pixel box the server resizes into (48, 96, 160 or 320); twice the shown height keeps it sharp. */
  size?: 48 | 96 | 160 | 320;
  height?: number;
}

/**
 * A supplier's logo as the API serves it (resized, cached). Suppliers without a logo answer 404:
 * then an empty box is shown instead of a broken image. The logo's box has a fixed size from the start (the width the
 * widest logo may take), so text beside it does not re-wrap when the picture arrives or fails (layout shift).
 */
export function SupplierLogo({ bpNumber, name, size = 96, height = 24 }: SupplierLogoProps) {
  const [failed, setFailed] = useState(false);
  // inline-block: Chrome draws a broken inline image as its alt text and ignores the size until onError hides it.
  const box = { height, width: height * 4, verticalAlign: 'middle', display: 'inline-block' } as const;
  return (
    <img
      src={`/v1/Suppliers/${encodeURIComponent(bpNumber)}/logo?size=${size}`}
      alt={failed ? '' : `Logo ${name}`}
      aria-hidden={failed || undefined}
      loading="lazy"
      onError={() => setFailed(true)}
      width={box.width}
      height={box.height}
      // A missing logo keeps its (empty) box: the same element, unchanged size, so nothing beside it moves.
      style={{ ...box, objectFit: 'contain', objectPosition: 'left center', visibility: failed ? 'hidden' : undefined }}
      data-testid="supplier-logo"
    />
  );
}
