import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { detailUrls, settle, tourOf, tourUsers } from './support/route-tour';
import { foreignWords } from './support/text-check';

/**
 * Every route as every role: what users read is German. No English words, no enum names ('Sftp'), no field
 * names of an interface ('name_kunde', 'inboundInterface'), no raw library errors.
 */
test.describe('Deutsche Texte auf jeder Seite', () => {
  for (const user of tourUsers) {
    test.describe(user.email, () => {
      test.use({ storageState: sessionFile(user.key) });

      test(`alle Seiten von ${user.roleLabel} ohne englische Wörter und Bezeichner`, async ({ page }) => {
        test.setTimeout(240_000);
        const urls = [...tourOf(user), ...(await detailUrls(page, user))];
        const findings: string[] = [];
        for (const url of urls) {
          await page.goto(url);
          await settle(page);
          // A parameter's description names the literal values an administrator types ('true/false'): data.
          const allowed = url.startsWith('/parameter') ? ['true', 'false'] : [];
          for (const finding of await foreignWords(page, allowed)) findings.push(`${url}: ${finding}`);
        }
        expect(findings).toEqual([]);
      });
    });
  }
});
