import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { createSshdPeer, sshdUnavailable, type SshdPeer } from '../apps/api/test/support/debian-peers';

/**
 * SFTP host keys on /admin › Workflows against Debian's sshd on loopback (the e2e server allows 127.0.0.1):
 * 'Verbindung testen' shows the server's SHA256 fingerprint, the administrator confirms it; after the server
 * comes back with a new key the test names both and 'Neuen Schlüssel annehmen' pins the new one. The workflow
 * is this spec's own; no supplier uses it.
 */
const skip = sshdUnavailable();
test.skip(skip !== null, skip ?? '');
test.use({ storageState: sessionFile('admin') });
test.setTimeout(120_000);

let sshd: SshdPeer;
test.beforeAll(async () => {
  sshd = await createSshdPeer();
  await sshd.start();
});
test.afterAll(async () => {
  await sshd?.close();
});

test('administrator confirms the SFTP host key and accepts a changed one', async ({ page }) => {
  const name = `E2E OpenSSH ${Date.now().toString(36)}`;
  await page.goto('/admin');
  const created = await page.evaluate(
    async ({ name, port, user, privateKey }) => {
      // The page signs in silently through the provider session before it stores the user (sessionStorage).
      const stored = () => Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'));
      for (let waited = 0; !stored() && waited < 30_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
      const token = JSON.parse(sessionStorage.getItem(stored()!)!).access_token;
      const res = await fetch('/v1/Workflow', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, communicationProtocol: 2, host: '127.0.0.1', port, userName: user, privateKey }),
      });
      return { status: res.status, body: await res.json() };
    },
    { name, port: sshd.port, user: sshd.user, privateKey: sshd.privateKey },
  );
  expect(created.status).toBe(201);
  await page.reload();

  const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ hasText: name });
  const hostKey = row.getByTestId(`host-key-${created.body.id}`);
  await expect(hostKey).toContainText('noch keiner gespeichert');
  await row.getByRole('button', { name: 'Verbindung testen' }).click();
  const first = sshd.fingerprint();
  await expect(row.getByRole('status')).toContainText(`Der Server zeigt den Hostschlüssel ${first}`);
  await row.getByRole('button', { name: 'Fingerabdruck bestätigen' }).click();
  await expect(
    page.getByTestId('toasts').getByText('Der Hostschlüssel wurde bestätigt und gespeichert.'),
  ).toBeVisible();
  await expect(hostKey).toContainText(`${first} (bestätigt)`);

  await sshd.start({ newHostKey: true });
  const second = sshd.fingerprint();
  await row.getByRole('button', { name: 'Verbindung testen' }).click();
  await expect(row.getByRole('status')).toContainText(`hinterlegt ist ${first}, der Server zeigt ${second}`);
  await row.getByRole('button', { name: 'Neuen Schlüssel annehmen' }).click();
  await expect(hostKey).toContainText(`${second} (bestätigt)`);
  await row.getByRole('button', { name: 'Verbindung testen' }).click();
  await expect(row.getByRole('status')).toHaveText('Verbindung erfolgreich hergestellt.');
});
