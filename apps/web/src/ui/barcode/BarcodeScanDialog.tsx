import { useEffect, useRef, useState } from 'react';
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { timings } from '@shk/contracts';
import { frameDecoder, isValidGtin } from './decoder';

/** How often a frame of the camera is read (a phone's CPU is shared with the page). */
const SCAN_INTERVAL_MS = 250;

/** The 'Barcode scannen' dialog with the camera (BarcodeScanButton loads it when the button is first pressed). */
export function BarcodeScanDialog({
  opened,
  onClose,
  onScan,
}: {
  opened: boolean;
  onClose: () => void;
  onScan: (code: string) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Barcode scannen"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      {opened && <CameraScanner onScan={onScan} />}
    </Modal>
  );
}

function CameraScanner({ onScan }: { onScan: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const done = useRef(onScan);
  done.current = onScan;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const canvas = document.createElement('canvas');

    const scan = async () => {
      if (stopped) return;
      const element = video.current;
      try {
        if (element && element.videoWidth > 0) {
          canvas.width = element.videoWidth;
          canvas.height = element.videoHeight;
          canvas.getContext('2d', { willReadFrequently: true })?.drawImage(element, 0, 0);
          const code = await (await frameDecoder())(canvas);
          if (!stopped && code && isValidGtin(code)) {
            stopped = true;
            done.current(code);
            return;
          }
        }
      } catch {
        setError('Der Barcode konnte nicht gelesen werden.');
      }
      timer = setTimeout(() => void scan(), SCAN_INTERVAL_MS);
    };

    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then((s) => {
        stream = s;
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        if (video.current) {
          video.current.srcObject = s;
          void video.current.play().catch(() => {});
        }
        // The decoder (WebAssembly where the browser has no BarcodeDetector) loads while the camera starts.
        void frameDecoder().catch(() => setError('Der Barcodeleser konnte nicht geladen werden.'));
        void scan();
      })
      .catch(() => setError('Die Kamera ist nicht verfügbar oder der Zugriff wurde nicht erlaubt.'));

    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  return (
    <Stack gap="sm">
      {error ? (
        <Alert color="red">{error}</Alert>
      ) : (
        <Text size="sm">Halten Sie den Barcode (EAN/GTIN) des Artikels vor die Kamera.</Text>
      )}
      <video
        ref={video}
        muted
        playsInline
        aria-label="Kamerabild"
        style={{ width: '100%', maxHeight: '60vh', background: 'black', borderRadius: 4 }}
      />
    </Stack>
  );
}
