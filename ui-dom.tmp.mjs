import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ storageState: `/tmp/ui-auth/support.json`, viewport: { width: 1400, height: 900 } });
const page = await context.newPage();
await page.goto('http://localhost:47311/dashboard');
await page.waitForLoadState('networkidle');
await page.waitForTimeout(1500);
console.log(await page.getByTestId('chart-count').evaluate((el) => [...el.querySelectorAll('[class*="yAxis"], [class*="y-axis"]')].map((e) => e.getAttribute('class') + ' :: ' + e.textContent).slice(0, 8).join('\n')));
await browser.close();
