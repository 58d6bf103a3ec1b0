/**
 * Reads an EAN/GTIN from a video frame: the browser's BarcodeDetector where it has one for these formats (Chrome on
 * Android and macOS), otherwise ZXing compiled to WebAssembly (zxing-wasm), loaded only when a scan starts. The
 * WebAssembly file comes from our own origin (Vite bundles it), never from a CDN.
 */
export type FrameDecoder = (frame: HTMLCanvasElement) => Promise<string | null>;

const NATIVE_FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e'];

interface NativeDetector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDecoder(): Promise<FrameDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  const supported = await Detector.getSupportedFormats().catch(() => [] as string[]);
  const formats = NATIVE_FORMATS.filter((f) => supported.includes(f));
  if (!formats.length) return null;
  const detector = new Detector({ formats });
  return async (frame) => (await detector.detect(frame))[0]?.rawValue ?? null;
}

async function wasmDecoder(): Promise<FrameDecoder> {
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({ overrides: { locateFile: () => wasmUrl } });
  return async (frame) => {
    const context = frame.getContext('2d', { willReadFrequently: true });
    if (!context) return null;
    const image = context.getImageData(0, 0, frame.width, frame.height);
    const results = await readBarcodes(image, { formats: ['EAN13', 'EAN8', 'UPCA', 'UPCE'], tryHarder: true });
    return results.find((r) => r.isValid)?.text ?? null;
  };
}

let decoder: Promise<FrameDecoder> | null = null;

/** The decoder of this browser, made once. */
export function frameDecoder(): Promise<FrameDecoder> {
  decoder ??= nativeDecoder().then((native) => native ?? wasmDecoder());
  return decoder;
}

/** A GTIN's check digit holds (EAN-8, UPC-A, EAN-13, GTIN-14): a misread code is not used. */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
