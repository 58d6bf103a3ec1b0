import { expect, type Page } from '@playwright/test';

/**
 * Helpers of the supplier–customer relation specs: API calls from the page context with the signed-in
 * user's bearer token (as the SPA sends it), and the pieces of 'Meine Lieferanten' / 'Meine Kunden'.
 */
export async function apiFromPage<T = unknown>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      // A stored session older than the token's five minutes is renewed by the page right after it loads:
      // wait for the fresh token instead of sending the expired one.
      const stored = () => {
        const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
        return key
          ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string; expires_at?: number })
          : undefined;
      };
      for (let waited = 0; waited < 30_000; waited += 200) {
        const user = stored();
        // No user yet: the page is still signing in silently (sessionStorage is filled after that).
        if (user && (user.expires_at ?? 0) > Date.now() / 1000 + 5) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const token = stored()?.access_token;
      const response = await fetch(path, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, data: (text ? JSON.parse(text) : null) as never };
    },
    { method, path, body },
  );
}

export interface OfferOfSupplier {
  productId: string;
  productInstanceId: string;
  productOrderableStatus: number;
}

/** The first search hit offered by a supplier, with its orderable status for the current partner. */
export async function firstOfferOfSupplier(page: Page, supplierBpNumber: string): Promise<OfferOfSupplier> {
  const result = await apiFromPage<{
    hits: {
      productId: string;
      productOrderableStatus: number;
      rows: { PRODUCTINSTANCE_ID: string; supplierID: string };
    }[];
  }>(page, 'POST', '/v1/Product/Search', {
    page: 1,
    pageSize: 25,
    searchTerm: '',
    filter: [{ columnName: 'supplierID', filterType: 'Auswahl', filterValue: [{ value: supplierBpNumber }] }],
  });
  expect(result.status, 'Suche nach Angeboten des Lieferanten').toBe(200);
  const hit = result.data.hits.find((h) => h.rows.supplierID === supplierBpNumber) ?? result.data.hits[0];
  expect(hit, `ein Angebot von ${supplierBpNumber}`).toBeTruthy();
  return {
    productId: hit.productId,
    productInstanceId: hit.rows.PRODUCTINSTANCE_ID,
    productOrderableStatus: hit.productOrderableStatus,
  };
}

/** The row of a table (by its accessible name) that contains a text. */
export const tableRow = (page: Page, table: string, text: string) =>
  page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

/** A toast (success: role status, error: role alert) with exactly this text. */
export const toastWith = (page: Page, text: string) =>
  page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text }).first();
