/**
 * The add-supplier dialog's business-partner steps through the API: a request without customer number carries the
 * company data the buyer added, edited and confirmed; the API checks every rule the dialog shows, keeps the data with
 * the relation (the supplier's sellers and staff see it, nobody else), and mails it to the supplier's new-customer address.
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

  it('is kept with the relation, shown to the supplier, and mailed to the new-customer address', async () => {
    const res = await request({
      ...contact,
      contactPhone: '+49 221 555013',
      message: 'Bitte rufen Sie vormittags an.',
      newCustomerPartner: partner,
    });
    expect(res.status, res.text).toBe(201);
    const mine = await t.request('GET', '/v1/SupplierCustomers', { as: BUYER });
    const relation = mine.body.items.find((r: any) => r.supplier.bpNumber === SUPPLIER);
    expect(relation.relationStatusId).toBe(4);

    // The supplier's seller: in 'Meine Kunden' (the list) and the single relation, with the contact person.
    const customers = await t.request('GET', '/v1/SupplierCustomers', { as: HYDRO_SELLER });
    expect(customers.status).toBe(200);
    const pending = customers.body.items.find((r: any) => r.id === relation.id);
    // Empty optional fields are kept as null; the country is Germany (the rules admit German addresses only).
    const expected = { ...partner, faxNumber: null, vatId: null, country: 'DE' };
    expect(pending.newCustomerPartner).toEqual(expected);
    expect(pending.newCustomerContact).toEqual({
      name: 'Erika Einkauf',
      email: 'einkauf@example.com',
      phone: '+49 221 555013',
      message: 'Bitte rufen Sie vormittags an.',
    });
    const bySupplier = await t.request('GET', `/v1/SupplierCustomers/${relation.id}`, { as: HYDRO_SELLER });
    expect(bySupplier.status).toBe(200);
    expect(bySupplier.body.newCustomerPartner).toEqual(expected);
    expect(bySupplier.body.newCustomerContact.name).toBe('Erika Einkauf');

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

  it("goes to the buyer that sent it, the supplier's sellers and staff, not to another supplier's seller", async () => {
    const { rows } = await t.pool.query(
      'SELECT id FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
      ['100001', SUPPLIER],
    );
    const id = Number(rows[0].id);
    // The buyer's own lists and answers show what it sent.
    const mine = await t.request('GET', '/v1/SupplierCustomers', { as: BUYER });
    const own = mine.body.items.find((r: any) => r.id === id);
    expect(own).toBeDefined();
    expect(own.newCustomerPartner.officialCompanyName).toBe('Sanitär Becker GmbH & Co. KG');
    expect(own.newCustomerContact.email).toBe('einkauf@example.com');
    const single = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER });
    expect(single.status).toBe(200);
    expect(single.body.newCustomerPartner.city).toBe('Köln');

    // Another supplier's seller: not in its customer list, and the relation itself is a 404.
    const others = await t.request('GET', '/v1/SupplierCustomers?RelationStatusIds=1,2,3,4', { as: OTHER_SELLER });
    expect(others.status).toBe(200);
    expect(others.body.items.map((r: any) => r.id)).not.toContain(id);
    expect(JSON.stringify(others.body)).not.toContain('Sanitär Becker GmbH & Co. KG');
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: OTHER_SELLER })).status).toBe(404);

    // Staff read it (the business-partner list and the single relation).
    const staffList = await t.request('GET', `/v1/PlatformOperator/SupplierCustomers?SupplierBpNumber=${SUPPLIER}`, {
      as: 'betrieb@example.com',
    });
    expect(staffList.status).toBe(200);
    const seen = staffList.body.items.find((r: any) => r.id === id);
    expect(seen.newCustomerPartner.officialCompanyName).toBe('Sanitär Becker GmbH & Co. KG');
    expect(seen.newCustomerContact.email).toBe('einkauf@example.com');
    const bySupport = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: 'support@example.com' });
    expect(bySupport.body.newCustomerPartner.city).toBe('Köln');
  });

  it('is absent from relations requested with a customer number', async () => {
    // Nordbad's customers of the demo world were requested with customer numbers.
    const customers = await t.request('GET', '/v1/SupplierCustomers', { as: OTHER_SELLER });
    expect(customers.body.items.length).toBeGreaterThan(0);
    for (const relation of customers.body.items) {
      expect(relation.supplierCustomerNumber).not.toBeNull();
      expect(relation.newCustomerPartner).toBeNull();
      expect(relation.newCustomerContact).toBeNull();
    }
  });

  it('stays visible to the seller while it enters the customer number and approves', async () => {
    const { rows } = await t.pool.query(
      'SELECT id FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
      ['100001', SUPPLIER],
    );
    const id = Number(rows[0].id);
    const approved = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: HYDRO_SELLER,
      body: { relationStatusId: 1, supplierCustomerNumber: 'HL-2001' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.relationStatusId).toBe(1);
    expect(approved.body.newCustomerPartner.officialCompanyName).toBe('Sanitär Becker GmbH & Co. KG');
    const mine = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER });
    expect(mine.body.relationStatusId).toBe(1);
    expect(mine.body.newCustomerPartner.officialCompanyName).toBe('Sanitär Becker GmbH & Co. KG');
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
