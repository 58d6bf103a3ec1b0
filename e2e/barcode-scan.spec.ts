import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js';
import { expect, test, type Browser } from '@playwright/test';
import { sessionFile } from './support/demo';

/**
 * Camera scan of an EAN-13 (issue 30): the barcode is drawn by bwip-js, turned into a Y4M video by Debian's ffmpeg and
 * fed to Chromium as its camera (`--use-file-for-fake-video-capture`). Debian's Chromium on Linux has no
 * BarcodeDetector, so this reads through the WebAssembly decoder (zxing-wasm) the SPA loads on demand.
 */
const GTIN = '4006381333931';
const FFMPEG = '/usr/bin/ffmpeg';

/** Installs ffmpeg as root (as scripts/test.mjs does for Chromium); null when it is there, else why not. */
function ensureFfmpeg(): string | null {
  if (fs.existsSync(FFMPEG)) return null;
  if (process.getuid?.() !== 0) return 'ffmpeg fehlt (sudo apt-get install -y ffmpeg)';
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'ffmpeg'], { stdio: 'ignore', env });
  return fs.existsSync(FFMPEG) ? null : 'ffmpeg konnte nicht installiert werden';
}

/** A Y4M video showing the EAN-13 barcode of `code` on white, as a phone camera would see a label. */
async function barcodeVideo(code: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-barcode-'));
  const png = path.join(dir, 'ean13.png');
  const y4m = path.join(dir, 'ean13.y4m');
  const image = await bwipjs.toBuffer({
    bcid: 'ean13',
    text: code,
    scale: 3,
    height: 20,
    includetext: true,
    paddingwidth: 12,
    paddingheight: 12,
    backgroundcolor: 'FFFFFF',
  });
  fs.writeFileSync(png, image);
  const converted = spawnSync(
    FFMPEG,
    [
      '-y',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      png,
      '-vf',
      'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p',
      '-r',
      '10',
      '-t',
      '2',
      y4m,
    ],
    { encoding: 'utf8' },
  );
  expect(converted.status, converted.stderr).toBe(0);
  return y4m;
}

test.describe('Barcode mit der Kamera (einkauf@example.com, Telefon)', () => {
  let browser: Browser;

  test.beforeAll(async ({ playwright, launchOptions }) => {
    const skip = ensureFfmpeg();
    test.skip(skip !== null, skip ?? '');
    const video = await barcodeVideo(GTIN);
    browser = await playwright.chromium.launch({
      ...launchOptions,
      args: [
        ...(launchOptions.args ?? []),
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
  });
  test.afterAll(async () => {
    await browser?.close();
  });

  const phonePage = async (baseURL: string | undefined) => {
    const context = await browser.newContext({
      baseURL,
      storageState: sessionFile('buyer'),
      viewport: { width: 390, height: 844 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    await context.grantPermissions(['camera']);
    return context.newPage();
  };

  test('die Suche nimmt den gescannten GTIN als Suchbegriff', async ({ baseURL }) => {
    const page = await phonePage(baseURL);
    await page.goto('/suche');
    await page.getByRole('button', { name: 'Barcode scannen' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Barcode scannen' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/suche\\?.*${GTIN}`), { timeout: 45_000 });
    await expect(page.getByRole('dialog', { name: 'Barcode scannen' })).toBeHidden();
    await expect(page.getByRole('searchbox', { name: 'Suchbegriff' }).first()).toHaveValue(GTIN);
    await page.context().close();
  });

  test('die Schnellerfassung nimmt den gescannten GTIN als Zeile', async ({ baseURL }) => {
    const page = await phonePage(baseURL);
    await page.goto('/schnellerfassung');
    const lines = page.getByLabel('Artikelnummern und Mengen');
    await lines.fill('NB-4711;2');
    await page.getByRole('main').getByRole('button', { name: 'Barcode scannen' }).click();
    await expect(lines).toHaveValue(`NB-4711;2\n${GTIN};1`, { timeout: 45_000 });
    await page.context().close();
  });
});
