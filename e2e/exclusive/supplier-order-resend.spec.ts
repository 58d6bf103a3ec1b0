import { expect, test, type Browser, type Page } from '@playwright/test';
import { loginThroughUi, presetCookieConsent } from '../support/session';

/** Calls the API with the page's stored session. */
async function apiCall(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      // The page signs in silently through the provider session before it stores the user (sessionStorage).
      const stored = () => Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'));
      for (let waited = 0; !stored() && waited < 30_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
      const token = JSON.parse(sessionStorage.getItem(stored()!)!).access_token;
      const res = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, url, body },
  );
}

const emails = { buyer: 'einkauf@example.com', admin: 'admin@example.com', support: 'support@example.com' };

/** Signs in itself (runs alone: `node scripts/e2e.mjs --no-deps e2e/exclusive/supplier-order-resend.spec.ts`). */
async function pageAs(browser: Browser, who: keyof typeof emails) {
  const page = await (await browser.newContext()).newPage();
  await presetCookieConsent(page);
  await loginThroughUi(page, emails[who]);
  return page;
}

/**
 * Staff: a supplier whose channel is down → retries → SendingFailed; the staff list finds the order with the
 * status filter; the supplier is switched back to e-mail: 'Erneut senden' names the channel of the first attempt
 * (it would go there again), staff choose 'Mit den aktuellen Einstellungen senden' and it is delivered (log: 'gesendet').
 * The e2e server runs with short transmission retries (scripts/e2e.mjs). Exclusive: AquaTherm's (200003)
 * outbound interface is switched to a closed HTTP port for a moment (restored in `finally`), which would fail
 * other specs' orders to AquaTherm meanwhile.
 */
test('staff: Erneut senden delivers a failed supplier order once its channel works again', async ({ browser }) => {
  test.setTimeout(360_000);
  const admin = await pageAs(browser, 'admin');
  await admin.goto('/');
  const original = await apiCall(admin, 'GET', '/v1/Suppliers/200003');
  expect(original.status).toBe(200);
  const settings = { ...original.body };
  const workflow = await apiCall(admin, 'POST', '/v1/Workflow', {
    name: `E2E geschlossen ${Date.now().toString(36)}`,
    communicationProtocol: 4,
    baseUrl: 'http://127.0.0.1:9/bestellungen',
    timeoutMs: 2000,
  });
  expect(workflow.status).toBeLessThan(300);
  const down = await apiCall(admin, 'PUT', '/v1/Suppliers', {
    ...settings,
    outboundInterface: { ...settings.outboundInterface, communicationProtocolId: 4 },
    workflowId: workflow.body.id,
  });
  expect(down.status, JSON.stringify(down.body)).toBe(200);

  let failedNo = '';
  try {
    const buyer = await pageAs(browser, 'buyer');
    await buyer.goto('/');
    const search = await apiCall(buyer, 'POST', '/v1/Product/Search', { searchTerm: 'Thermostat', pageSize: 100 });
    const offer = search.body.hits.find(
      (h: { rows: { supplierID: string }; productOrderableStatus: number; price: unknown }) =>
        h.rows.supplierID === '200003' && h.productOrderableStatus === 1 && h.price,
    )?.rows.PRODUCTINSTANCE_ID as string;
    expect(offer).toBeTruthy();
    const cart = await apiCall(buyer, 'POST', '/v1/MultiCarts', { name: `E2E Resend ${Date.now().toString(36)}` });
    expect(
      (await apiCall(buyer, 'POST', '/v1/CartItems', { cartId: cart.body.id, productInstanceId: offer, quantity: 3 }))
        .status,
    ).toBeLessThan(300);
    const checkout = await apiCall(buyer, 'POST', `/v1/MultiCarts/${cart.body.id}/checkout`);
    expect(checkout.status).toBe(200);
    await expect
      .poll(
        async () => {
          const d = await apiCall(buyer, 'GET', `/v1/CustomerOrders/${checkout.body.customerOrderNumber}/Details`);
          failedNo = d.body.supplierOrdersDetails[0].supplierOrderNumber;
          return d.body.supplierOrdersDetails[0].supplierOrderStatusId;
        },
        { timeout: 90_000 },
      )
      .toBe(3);
  } finally {
    // The supplier's interface works again (e-mail as before).
    const back = await apiCall(admin, 'PUT', '/v1/Suppliers', settings);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
  }

  // Staff find it with the status filter of the supplier-order list.
  const staff = await pageAs(browser, 'support');
  await staff.goto('/bestellungen?orderType=supplier');
  await staff.getByRole('combobox', { name: 'Status', exact: true }).click();
  await staff.getByRole('option', { name: 'Versand fehlgeschlagen' }).click();
  await expect(staff).toHaveURL(/status=3/);
  const table = staff.getByTestId('orders-table');
  await expect(table.getByText(failedNo)).toBeVisible();
  await expect(staff.getByRole('region', { name: 'Abgelehnte Auftragsbestätigungen' })).toBeVisible();

  await staff.goto(`/bestellungen/bestellung?id=${failedNo}&orderType=supplier`);
  const log = staff.getByTestId('transmission-log');
  await expect(log.getByRole('row').nth(1)).toContainText('fehlgeschlagen');
  await expect(staff.getByTestId('resend-channel')).toContainText(
    'Erneut senden verwendet denselben Weg wie der erste Versuch: HTTP · Workflow „E2E geschlossen',
  );
  await expect(staff.getByTestId('channel-changed')).toContainText('umgestellt auf: E-Mail');
  await staff.getByRole('button', { name: 'Mit den aktuellen Einstellungen senden' }).click();
  await expect(
    staff
      .getByTestId('toasts')
      .getByText('Die Bestellung wird mit den aktuellen Einstellungen des Lieferanten erneut gesendet.'),
  ).toBeVisible();
  await expect
    .poll(
      async () => {
        await staff.goto(`/bestellungen/bestellung?id=${failedNo}&orderType=supplier`);
        await expect(staff.getByTestId('supplier-order')).toBeVisible();
        return staff.getByTestId('supplier-order').getByText('An Lieferant übermittelt', { exact: true }).count();
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  await expect(log.getByRole('row').last()).toContainText('gesendet');
  await expect(log.getByRole('row').filter({ hasText: 'gesendet' })).toHaveCount(1);
  await expect(staff.getByRole('button', { name: 'Erneut senden' })).toHaveCount(0);
});
