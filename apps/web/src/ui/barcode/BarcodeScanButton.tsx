import { lazy, Suspense, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { DeferredTooltip } from '../DeferredTooltip';
import { BarcodeIcon } from '../icons';
import { useOpenedOnce } from '../use-opened-once';

// The dialog (Mantine's Modal, the camera, the decoder) is loaded when the button is first pressed: the button sits in
// the search field of the home and search pages, whose first render must not wait for a Modal (and its focus trap,
// scroll area, portal) nobody opened yet.
const BarcodeScanDialog = lazy(() => import('./BarcodeScanDialog').then((m) => ({ default: m.BarcodeScanDialog })));

const hasCamera = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

/**
 * 'Barcode scannen': opens the rear camera, reads an EAN/GTIN and hands it over (search term, quick-order line).
 * Shown only where the browser offers a camera API.
 */
export function BarcodeScanButton({
  onScan,
  size = 'lg',
  inField = false,
}: {
  onScan: (code: string) => void;
  size?: string;
  /** Inside a text field (its right section): small and borderless, so the field keeps its width on a phone. */
  inField?: boolean;
}) {
  const [opened, setOpened] = useState(false);
  const dialogMounted = useOpenedOnce(opened);
  if (!hasCamera()) return null;
  return (
    <>
      <DeferredTooltip label="Barcode scannen">
        <ActionIcon
          variant={inField ? 'subtle' : 'default'}
          color={inField ? 'gray' : undefined}
          size={inField ? 28 : size === 'md' ? 36 : 42}
          aria-label="Barcode scannen"
          onClick={() => setOpened(true)}
          data-testid="barcode-scan"
        >
          <BarcodeIcon size={20} />
        </ActionIcon>
      </DeferredTooltip>
      {dialogMounted && (
        <Suspense fallback={null}>
          <BarcodeScanDialog
            opened={opened}
            onClose={() => setOpened(false)}
            onScan={(code) => {
              setOpened(false);
              onScan(code);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
