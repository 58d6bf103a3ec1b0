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
 * then nothing is shown instead of a broken image.
 */
export function SupplierLogo({ bpNumber, name, size = 96, height = 24 }: SupplierLogoProps) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      src={`/v1/Suppliers/${encodeURIComponent(bpNumber)}/logo?size=${size}`}
      alt={`Logo ${name}`}
      loading="lazy"
      onError={() => setFailed(true)}
      style={{ height, width: 'auto', maxWidth: height * 4, objectFit: 'contain', verticalAlign: 'middle' }}
      data-testid="supplier-logo"
    />
  );
}
