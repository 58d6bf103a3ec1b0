import type { Page } from '@playwright/test';

/**
 * English words users met on the portal's pages or are likely to meet (UI words, library errors). German words
 * that look English ('Status', 'Name', 'Export', 'Online') are not on the list.
 */
const englishWords = [
  'my',
  'reports',
  'report',
  'settings',
  'save',
  'cancel',
  'delete',
  'edit',
  'search',
  'cart',
  'carts',
  'order',
  'orders',
  'loading',
  'error',
  'failed',
  'submit',
  'close',
  'open',
  'type',
  'date',
  'number',
  'items',
  'item',
  'total',
  'price',
  'the',
  'and',
  'of',
  'for',
  'with',
  'not',
  'found',
  'invalid',
  'request',
  'network',
  'fetch',
  'undefined',
  'null',
  'true',
  'false',
  'NaN',
  'object',
  'TypeError',
  'SyntaxError',
  'unexpected',
  'token',
  'timeout',
  'integer',
  'varchar',
  'page',
  'next',
  'previous',
  'back',
  'home',
  'logout',
  'sign',
  'user',
  'users',
  'supplier',
  'suppliers',
  'customer',
  'customers',
  'inbound',
  'outbound',
  'interface',
  'file',
  'files',
  'yes',
  'no',
  'unknown',
  'none',
  'select',
  'choose',
  'required',
  'value',
  'values',
  'overview',
  'welcome',
  'please',
  'try',
  'again',
  'something',
  'went',
  'wrong',
  'is',
  'are',
  'to',
  'from',
  'by',
  'on',
  'at',
];
const englishWordSet = new Set(englishWords.map((word) => word.toLowerCase()));
/** Mixed-case spellings of protocol and format names that only enums use ('Sftp', 'Pdf'); capitals are fine. */
const enumSpellings = /^(Sftp|Ftp|Api|Pdf|Http|Email|As2|Edi_9[67]A|Varchar|Integer)$/;

/** Brand names and product data that look like identifiers or English but are what the user expects. */
const allowed = new Set<string>([
  // Brands and product names of the demo catalogue and the portal's partners.
  'IDS-Connect',
  'eCl@ss',
  // Names of the procurement protocols a buyer's administrator knows them by (Mein Profil, punchout).
  'cXML',
  // Legal form in company names ('… Einkaufsgenossenschaft eG').
  'eG',
  'ETIM',
  // The browser's and operating system's names in the footer or the cookie declaration.
  'localStorage',
  'sessionStorage',
]);

/**
 * English words and programmers' identifiers (camelCase, snake_case) in the page's visible text, its placeholders
 * and titles. Returns each finding once.
 */
export async function foreignWords(page: Page, extraAllowed: string[] = []): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const visibleText = document.body.innerText;
    const attributes = [...document.querySelectorAll('[placeholder], [title]')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .flatMap((el) => [el.getAttribute('placeholder') ?? '', el.getAttribute('title') ?? '']);
    return [visibleText, ...attributes];
  });
  const allowList = new Set([...allowed, ...extraAllowed]);
  const findings = new Set<string>();
  for (const text of texts) {
    // Addresses and mail addresses are data, not words.
    const withoutData = text.replace(/\b[\w.+-]+@[\w.-]+\b/g, ' ').replace(/\bhttps?:\/\/\S+/g, ' ');
    for (const token of withoutData.split(/[\s,;:()[\]{}"„“”'‚‘’!?…·|/]+/)) {
      const word = token.replace(/^[.\-–]+|[.\-–]+$/g, '');
      if (!word || allowList.has(word)) continue;
      if (/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(word)) findings.add(`Bezeichner (camelCase): ${word}`);
      else if (/^[A-Za-z]+(?:_[A-Za-z0-9]+)+$/.test(word) && !/^[A-Z0-9_]+$/.test(word))
        findings.add(`Bezeichner (snake_case): ${word}`);
      else if (enumSpellings.test(word)) findings.add(`Aufzählungsname: ${word}`);
      else if (/^[A-Za-z]+$/.test(word) && englishWordSet.has(word.toLowerCase()) && word !== word.toUpperCase())
        findings.add(`englisch: ${word}`);
    }
  }
  return [...findings];
}
