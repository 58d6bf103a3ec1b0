import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const change = (as: string, email = 'irgendwer@example.org') =>
  t.request('POST', '/v1/SupportRequests/PartnerDataChange', { as, body: { message: 'Neue Anschrift', email } });

describe('role grants', () => {
  it('role None may not send search feedback', async () => {
    const body = { isPositive: true, comment: 'gut' };
    const none = await t.request('POST', '/v1/Feedbacks', { as: 'gast@example.com', body });
    expect(none.status).toBe(403);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    expect((await t.request('POST', '/v1/Feedbacks', { as: 'einkauf@example.com', body })).status).toBe(201);
  });

  it('staff and role None may not send partner data change requests', async () => {
    for (const as of ['gast@example.com', 'admin@example.com', 'support@example.com', 'betrieb@example.com']) {
      const res = await change(as);
      expect(res.status, as).toBe(403);
    }
    expect((await change('verkauf@example.com')).status).toBe(201);
  });
});

describe('mail-sending calls', () => {
  it('take Reply-To from the profile address, never from the typed-in one', async () => {
    const res = await change('einkauf@example.com', 'angreifer@example.org');
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query(
      'SELECT m.reply_to, m.body_text FROM support_requests s JOIN mail_outbox m ON m.id = s.mail_id WHERE s.id = $1',
      [res.body.id],
    );
    expect(rows[0].reply_to).toBe('einkauf@example.com');
    expect(rows[0].body_text).toContain('angreifer@example.org');
  });

  it('are rate limited per user with a German 429 problem', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof change>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await change('einkauf2@example.com');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(last!.headers.get('content-type')).toContain('application/problem+json');
    expect(last!.headers.get('retry-after')).toBeTruthy();
    expect(last!.body).toMatchObject({ status: 429, title: 'Zu viele Anfragen' });
    // Another user is not affected.
    expect((await change('verkauf@example.com')).status).toBe(201);
  });
  it('relation requests: Reply-To is the profile address, the typed-in contact is only quoted', async () => {
    const res = await t.request('POST', '/v1/SupplierCustomers', {
      as: 'einkauf@example.com',
      body: {
        supplierBpNumber: '200006',
        contactName: 'Mallory',
        contactEmail: 'angreifer@example.org',
        newCustomerPartner: {
          officialCompanyName: 'Mallory GmbH',
          street: 'Hauptstraße',
          houseNumber: '1',
          postalCode: '10115',
          city: 'Berlin',
          email: 'angreifer@example.org',
          phoneNumber: '030 1234',
          taxNumber: '12/345/67890',
        },
      },
    });
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query(
      "SELECT reply_to, body_text FROM mail_outbox WHERE subject LIKE 'Neukundenanfrage%' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0].reply_to).toBe('einkauf@example.com');
    expect(rows[0].body_text).toContain('angreifer@example.org');
  });

  it('relation requests are rate limited per user like every mail-sending call', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await t.request('POST', '/v1/SupplierCustomers', {
        as: 'einkauf2@example.com',
        body: { supplierBpNumber: '200002', supplierCustomerNumber: `K-${i}` },
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
    expect(last!.body).toMatchObject({ status: 429, title: 'Zu viele Anfragen' });
    expect(last!.headers.get('retry-after')).toBeTruthy();
  });
});
