/**
 * The add-supplier dialog's business-partner steps through the API: a request without customer number carries the
 * company data the buyer added, edited and confirmed; the API checks every rule the dialog shows, keeps the data with
 * the relation (the supplier's seller sees it, nobody else), and mails it to the supplier's new-customer address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { hashPassword } from '../identity/password.ts';

let t: TestApp;
const BUYER = 'einkauf@example.com'; // current partner 100001
const OTHER_BUYER = 'einkauf2@example.com'; // partner 100003
const OTHER_SELLER = 'verkauf@example.com'; // supplier 200001
const HYDRO_SELLER = 'verkauf-hl@example.com'; // supplier 200006, created below
const SUPPLIER = '200006'; // Hydroline, no relation with 100001 yet

const partner = {
  officialCompanyName: 'Sanitär Becker GmbH & Co. KG',
  street: 'Ringstraße',
  houseNumber: '12a',
  postalCode: '50667',
  city: 'Köln',
  email: 'buchhaltung@becker.example',
  phoneNumber: '+49 221 555012',
  faxNumber: '',
  website: 'www.becker-sanitaer.example',
  vatId: '',
  taxNumber: '215/5812/1234',
};
const contact = { contactName: 'Erika Einkauf', contactEmail: 'einkauf@example.com' };

beforeAll(async () => {
  t = await startTestApp();
  await t.pool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
     VALUES ('00000000-0000-4000-8000-0000000000b6', $1, 'Hanna', 'Hydro', 2, $2, $3)`,
    [HYDRO_SELLER, await hashPassword('demo'), SUPPLIER],
  );
  await t.pool.query(`INSERT INTO user_business_partners VALUES ('00000000-0000-4000-8000-0000000000b6', $1)`, [
    SUPPLIER,
  ]);
});
afterAll(async () => {
  await t?.close();
});

const request = (body: object, as = BUYER) =>
  t.request('POST', '/v1/SupplierCustomers', { as, body: { supplierBpNumber: SUPPLIER, ...body } });
const fieldsOf = (res: { body: any }) =>
  Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.message ?? e.detail ?? e.title]));

describe('the business partner of a request without customer number', () => {
  it('is required, and only with a request without customer number', async () => {
    const missing = await request(contact);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('Bitte bestätigen Sie die Firmendaten Ihres Geschäftspartners.');

    const withNumber = await request({ supplierCustomerNumber: 'HL-1', newCustomerPartner: partner });
    expect(withNumber.status).toBe(400);
    expect(JSON.stringify(withNumber.body)).toContain(
      'Firmendaten werden nur mit einer Anfrage ohne Kundennummer übermittelt.',
    );
  });

  it('checks every rule the dialog shows, with German messages per field', async () => {
    const res = await request({
      ...contact,
      newCustomerPartner: {
        ...partner,
        officialCompanyName: ' ',
        postalCode: '5066',
        phoneNumber: 'ruf an',
        website: 'nicht eine adresse',
        vatId: 'AT123',
        taxNumber: '',
        city: 'K'.repeat(61),
      },
    });
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    for (const message of [
      'Pflichtfeld',
      'Bitte geben Sie eine fünfstellige Postleitzahl ein.',
      'Bitte geben Sie eine gültige Telefonnummer ein.',
      'Bitte geben Sie eine gültige Webadresse ein.',
      'Bitte geben Sie eine gültige USt-IdNr. ein (DE und neun Ziffern).',
      'Maximal 60 Zeichen',
    ])
      expect(text).toContain(message);
    expect(Object.keys(fieldsOf(res)).sort()).toEqual(
      [
        'body.newCustomerPartner.city',
        'body.newCustomerPartner.officialCompanyName',
        'body.newCustomerPartner.phoneNumber',
        'body.newCustomerPartner.postalCode',
        'body.newCustomerPartner.vatId',
        'body.newCustomerPartner.website',
      ].sort(),
    );

    // One of the tax identifiers is needed.
    const noTax = await request({ ...contact, newCustomerPartner: { ...partner, taxNumber: '', vatId: '' } });
    expect(noTax.status).toBe(400);
    expect(JSON.stringify(noTax.body)).toContain('Bitte geben Sie die USt-IdNr. oder die Steuernummer an.');
    // Nothing was stored by the refused requests.
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
      ['100001', SUPPLIER],
    );
    expect(rows[0].n).toBe(0);
  });

  it('is kept with the relation, shown to the buyer and the supplier, and mailed to the new-customer address', async () => {
    const res = await request({ ...contact, newCustomerPartner: partner });
    expect(res.status, res.text).toBe(201);
    const mine = await t.request('GET', '/v1/SupplierCustomers', { as: BUYER });
    const relation = mine.body.items.find((r: any) => r.supplier.bpNumber === SUPPLIER);
    expect(relation.relationStatusId).toBe(4);
    // Empty optional fields are kept as null.
    expect(relation.newCustomerPartner).toEqual({ ...partner, faxNumber: null, vatId: null });

    const bySupplier = await t.request('GET', `/v1/SupplierCustomers/${relation.id}`, { as: HYDRO_SELLER });
    expect(bySupplier.status).toBe(200);
    expect(bySupplier.body.newCustomerPartner.officialCompanyName).toBe('Sanitär Becker GmbH & Co. KG');

    const mail = await eventually(async () => {
      const { rows } = await t.pool.query(
        "SELECT body_text FROM mail_outbox WHERE to_address = 'neukunden@hydroline.example' AND subject LIKE 'Neukundenanfrage%' ORDER BY id DESC",
      );
      return rows[0];
    });
    expect(mail.body_text).toContain('Firmendaten für die Anlage als Neukunde (vom Käufer bestätigt):');
    expect(mail.body_text).toContain('Anschrift: Ringstraße 12a, 50667 Köln');
    expect(mail.body_text).toContain('Steuernummer: 215/5812/1234');
  });

  it("another partner's relation is a 404, for buyers and sellers alike", async () => {
    const { rows } = await t.pool.query(
      'SELECT id FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
      ['100001', SUPPLIER],
    );
    const id = Number(rows[0].id);
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: OTHER_BUYER })).status).toBe(404);
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: OTHER_SELLER })).status).toBe(404);
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER })).status).toBe(200);
  });

  it('only buyers send requests', async () => {
    const res = await request({ ...contact, newCustomerPartner: partner }, HYDRO_SELLER);
    expect(res.status).toBe(403);
  });
});
