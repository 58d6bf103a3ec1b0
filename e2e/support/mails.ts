import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/**
 * The server of an e2e run has no SMTP_URL: its mails are .eml files under DATA_DIR/mail (the file transport).
 * scripts/e2e.mjs puts the stored sessions into DATA_DIR/auth, so the mail folder lies beside it.
 */
export const mailDir = () =>
  process.env.E2E_AUTH_DIR ? path.join(path.dirname(process.env.E2E_AUTH_DIR), 'mail') : null;

function decodeBody(source: string): string {
  const split = source.indexOf('\n\n');
  const headers = source.slice(0, split);
  const body = source.slice(split + 2);
  return /content-transfer-encoding: base64/i.test(headers)
    ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
    : Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
}

/** The texts of the mails to an address (oldest first). */
function mailsTo(address: string): string[] {
  const dir = mailDir();
  if (!dir || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((file) => fs.readFileSync(path.join(dir, file), 'latin1'))
    .filter((source) => new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}$`, 'im').test(source))
    .map(decodeBody);
}

/** Waits for the n-th mail to the address that contains `marker` and returns its set-password link (path only). */
export async function passwordLinkFor(address: string, marker: string, n = 1): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const texts = mailsTo(address).filter((text) => text.includes(marker));
        link = /https?:\/\/[^/\s]+(\/auth\/passwort\/[A-Za-z0-9_-]+)/.exec(texts[n - 1] ?? '')?.[1] ?? '';
        return link;
      },
      { message: `Mail an ${address} mit „${marker}“`, timeout: 30_000 },
    )
    .not.toBe('');
  return link;
}
