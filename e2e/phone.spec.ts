import { expect, test } from '@playwright/test';
import { sessionFile } from './support/demo';
import { layoutProblems } from './support/layout-check';
import { detailUrls, settle, tourOf, tourUsers } from './support/route-tour';

/**
 * Every route as every role on a 360 px phone: nothing scrolls sideways, no text is cut without a title that
 * shows it whole, no word breaks in the middle.
 */
test.describe('Telefon, 360 px: jede Seite passt', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  for (const user of tourUsers) {
    test.describe(user.email, () => {
      test.use({ storageState: sessionFile(user.key) });

      test(`alle Seiten von ${user.roleLabel} ohne seitliches Scrollen und ohne abgeschnittene Texte`, async ({
        page,
      }) => {
        test.setTimeout(240_000);
        const urls = [...tourOf(user), ...(await detailUrls(page, user))];
        const findings: string[] = [];
        for (const url of urls) {
          await page.goto(url);
          await settle(page);
          for (const problem of await layoutProblems(page)) findings.push(`${url}: ${problem}`);
        }
        expect(findings).toEqual([]);
      });
    });
  }
});
