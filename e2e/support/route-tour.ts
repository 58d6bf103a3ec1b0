import { expect, type Page } from '@playwright/test';
import { demoUsers, routeUrls, type DemoUser } from './demo';

/** A page of the tour: the address and a readable name for failure messages. */
export interface TourStop {
  url: string;
}

/** Pages not in the spec's route table that a role reaches by a link: quick order, order and parameter detail. */
const extraUrls: Partial<Record<DemoUser['key'], string[]>> = {
  buyer: ['/schnellerfassung'],
  buyer2: ['/schnellerfassung'],
};

/** Every route each role may open ('/add-to-cart' is a return address without a page of its own). */
export function tourOf(user: DemoUser): string[] {
  const urls = user.allowed.filter((key) => key !== 'addToCart').map((key) => routeUrls[key]);
  return [...urls, ...(extraUrls[user.key] ?? [])];
}

/** The roles of the tour: every demo role but the second buyer (the same pages as the first). */
export const tourUsers = demoUsers.filter((user) => user.key !== 'buyer2');

/** Waits until the page has loaded its data: no request in flight, no loader or skeleton shown. */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('main .mantine-Loader-root, main .mantine-Skeleton-root')).toHaveCount(0, {
    timeout: 20_000,
  });
}

/**
 * The first detail page linked from a list page (an order from the order list, a parameter from the
 * parameter list), so the tour also sees the pages that need an id.
 */
export async function firstLinkedDetail(page: Page, listUrl: string, hrefPart: string): Promise<string | null> {
  await page.goto(listUrl);
  await settle(page);
  const link = page.locator(`main a[href*="${hrefPart}"]`).first();
  if ((await link.count()) === 0) return null;
  return link.getAttribute('href');
}

/** Detail pages of a role's tour, found through its list pages. */
export async function detailUrls(page: Page, user: DemoUser): Promise<string[]> {
  const found: (string | null)[] = [];
  if (user.allowed.includes('orders'))
    found.push(await firstLinkedDetail(page, '/bestellungen', '/bestellungen/bestellung'));
  if (user.allowed.includes('supplierOrders'))
    found.push(await firstLinkedDetail(page, '/lieferantenbestellungen', '/bestellungen/bestellung'));
  if (user.allowed.includes('customParameter')) found.push(await firstLinkedDetail(page, '/parameter', '/parameter/'));
  if (user.allowed.includes('search')) found.push(await firstLinkedDetail(page, '/suche', '/produkt?'));
  return found.filter((url): url is string => url !== null);
}
