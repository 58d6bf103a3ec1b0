import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { toastWith } from './support/relations';

/**
 * AS2 workflows on /admin: the administrator uploads the partner's certificate (DER file made by OpenSSL),
 * chooses the encryption and sees subject, issuer, fingerprint and expiry in the list; a certificate that
 * expires within 30 days raises the notice above the list. The workflows are new (unique names), so no
 * other spec's state changes.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);
test.use({ storageState: sessionFile('admin') });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-e2e-as2-'));
const run = Date.now().toString(36);

function certificate(name: string, days: number, form: 'PEM' | 'DER') {
  const key = path.join(dir, `${name}.key`);
  const pem = path.join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      String(days),
      '-subj',
      `/CN=${name}/O=E2E Partner`,
      '-keyout',
      key,
      '-out',
      pem,
    ],
    { stdio: 'pipe' },
  );
  const fingerprint = execFileSync('openssl', ['x509', '-in', pem, '-noout', '-fingerprint', '-sha256'])
    .toString()
    .trim()
    .split('=')[1];
  if (form === 'PEM') return { file: pem, fingerprint };
  const der = path.join(dir, `${name}.der`);
  execFileSync('openssl', ['x509', '-in', pem, '-outform', 'DER', '-out', der]);
  return { file: der, fingerprint };
}

test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function addAs2Workflow(page: import('@playwright/test').Page, name: string, file: string, encryption?: string) {
  await page.getByRole('button', { name: 'Workflow hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Workflow hinzufügen' });
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
  await dialog.getByRole('combobox', { name: 'Protokoll', exact: true }).click();
  await page.getByRole('option', { name: 'AS2', exact: true }).click();
  await dialog.locator('input[type="file"]').setInputFiles(file);
  if (encryption) {
    await dialog.getByRole('combobox', { name: 'Verschlüsselung', exact: true }).click();
    await page.getByRole('option', { name: encryption, exact: true }).click();
  }
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(toastWith(page, 'Der Workflow wurde gespeichert.')).toBeVisible();
}

test('an AS2 workflow with the partner certificate as DER: details in the list; an expiring one raises the notice', async ({
  page,
}) => {
  await page.goto('/admin');
  const table = page.getByRole('table', { name: 'Workflows' });
  await expect(table).toBeVisible();

  const partner = certificate(`PARTNER-${run}`, 400, 'DER');
  await addAs2Workflow(page, `AS2 Partner ${run}`, partner.file, 'AES-128-CBC');
  const row = table.getByRole('row').filter({ hasText: `AS2 Partner ${run}` });
  await expect(row).toContainText('AES-128-CBC, MDN synchron');
  await expect(row).toContainText(`Inhaber: CN=PARTNER-${run}, O=E2E Partner`);
  await expect(row).toContainText(`Aussteller: CN=PARTNER-${run}, O=E2E Partner`);
  await expect(row).toContainText(`SHA-256: ${partner.fingerprint}`);
  await expect(row).toContainText('Gültig bis');
  await expect(page.getByText(/^Unser AS2-Zertifikat \(AS2-Kennung /)).toBeVisible();

  const expiring = certificate(`BALD-${run}`, 12, 'PEM');
  await addAs2Workflow(page, `AS2 Bald ${run}`, expiring.file);
  const notice = page.getByRole('alert').filter({ hasText: 'Zertifikate laufen ab' });
  await expect(notice).toContainText(
    new RegExp(`AS2-Partnerzertifikat des Workflows „AS2 Bald ${run}“ läuft in 1[12] Tagen ab`),
  );
  await expect(table.getByRole('row').filter({ hasText: `AS2 Bald ${run}` })).toContainText(/noch 1[12] Tage/);
});
