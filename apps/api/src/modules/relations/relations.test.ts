import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, eventually, type TestApp } from '../../../test/support/test-app.ts';
import { hashPassword } from '../identity/password.ts';

let t: TestApp;
const BUYER = 'einkauf@example.com'; // current partner 100001
const BUYER2 = 'einkauf2@example.com'; // partner 100003
const SELLER = 'verkauf@example.com'; // supplier 200001
const OTHER_SELLER = 'verkauf-wk@example.com'; // supplier 200002, created below
/** The company data a request without customer number carries (the dialog's business-partner steps). */
const NEW_CUSTOMER = {
  officialCompanyName: 'Sanitär Becker GmbH & Co. KG',
  street: 'Ringstraße',
  houseNumber: '12a',
  postalCode: '50667',
  city: 'Köln',
  email: 'buchhaltung@becker.example',
  phoneNumber: '0221 555012',
  vatId: 'DE123456789',
};

beforeAll(async () => {
  t = await startTestApp();
  await t.pool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
    VALUES ('00000000-0000-4000-8000-0000000000a1', $1, 'Walter', 'Kontor', 2, $2, '200002')`,
    [OTHER_SELLER, await hashPassword('demo')],
  );
  await t.pool.query(`INSERT INTO user_business_partners VALUES ('00000000-0000-4000-8000-0000000000a1', '200002')`);
});
afterAll(async () => {
  await t?.close();
});

async function relationId(buyer: string, supplier: string): Promise<number> {
  const { rows } = await t.pool.query(
    'SELECT id FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = $2',
    [buyer, supplier],
  );
  return Number(rows[0].id);
}
async function sentMailTo(address: string, subjectPart: string) {
  return eventually(async () => {
    const { rows } = await t.pool.query(
      "SELECT * FROM mail_outbox WHERE to_address = $1 AND subject LIKE $2 AND status = 'sent' ORDER BY id DESC",
      [address, `%${subjectPart}%`],
    );
    return rows[0];
  });
}

describe('listing', () => {
  it('a buyer sees only the relations of its current partner, sorted by status then name', async () => {
    const res = await t.request('GET', '/v1/SupplierCustomers', { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: any) => [r.supplier.bpNumber, r.relationStatusId])).toEqual([
      ['200003', 1],
      ['200001', 1],
      ['200002', 2],
    ]);
    expect(res.body.items.every((r: any) => r.buyer.bpNumber === '100001')).toBe(true);
  });

  it('filters by numeric status and falls back to the four defaults on anything else', async () => {
    const approved = await t.request('GET', '/v1/SupplierCustomers?RelationStatusIds=2', { as: BUYER });
    expect(approved.body.items.map((r: any) => r.supplier.bpNumber)).toEqual(['200002']);
    const junk = await t.request('GET', '/v1/SupplierCustomers?RelationStatusIds=abc', { as: BUYER });
    expect(junk.status).toBe(200);
    expect(junk.body.totalCount).toBe(3);
  });

  it('pages carry the number of all matches, also a page past the end', async () => {
    const second = await t.request('GET', '/v1/SupplierCustomers?PageSize=1&Page=2', { as: BUYER });
    expect(second.body.items.map((r: any) => r.supplier.bpNumber)).toEqual(['200001']);
    expect(second.body).toMatchObject({ totalCount: 3, totalPages: 3, currentPage: 2 });
    const beyond = await t.request('GET', '/v1/SupplierCustomers?PageSize=1&Page=9', { as: BUYER });
    expect(beyond.body).toMatchObject({ items: [], totalCount: 3, totalPages: 3 });
  });

  it('searches suppliers by name or number', async () => {
    const res = await t.request('GET', `/v1/SupplierCustomers?Name=${encodeURIComponent('aqua')}`, { as: BUYER });
    expect(res.body.items.map((r: any) => r.supplier.bpNumber)).toEqual(['200003']);
  });

  it('a seller sees only customers of its own supplier', async () => {
    const res = await t.request('GET', '/v1/SupplierCustomers', { as: SELLER });
    expect(res.body.items.map((r: any) => r.buyer.bpNumber).sort()).toEqual(['100001', '100003']);
    const other = await t.request('GET', '/v1/SupplierCustomers', { as: OTHER_SELLER });
    expect(other.body.items.map((r: any) => r.buyer.bpNumber)).toEqual(['100001']);
  });

  it("another partner's relation is a 404", async () => {
    const id = await relationId('100001', '200003');
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER })).status).toBe(200);
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER2 })).status).toBe(404);
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: SELLER })).status).toBe(404);
    expect(
      (
        await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
          as: SELLER,
          body: { relationStatusId: 3, comments: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('suppliers without relation exclude existing relations and inactive suppliers', async () => {
    const res = await t.request('GET', '/v1/SupplierCustomers/SuppliersWithoutRelation', { as: BUYER });
    const numbers = res.body.map((s: any) => s.bpNumber);
    expect(numbers).not.toContain('200001');
    expect(numbers).not.toContain('200002');
    expect(numbers).toContain('200009');
  });
});

describe('requests and transitions', () => {
  it('a request with customer number waits for confirmation and mails the customer onboarding address', async () => {
    const res = await t.request('POST', '/v1/SupplierCustomers', {
      as: BUYER,
      body: { supplierBpNumber: '200009', supplierCustomerNumber: 'WH-4711' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ bpNumber: '200009', name: 'Werkzeughaus Franken' });
    const id = await relationId('100001', '200009');
    const rel = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER });
    expect(rel.body).toMatchObject({ relationStatusId: 2, supplierCustomerNumber: 'WH-4711' });
    const mail = await sentMailTo('kunden@werkzeughaus-franken.example', 'Freischaltungsanfrage');
    expect(mail.body_text).toContain('WH-4711');
    expect(fs.readFileSync(mail.stored_as, 'utf8')).toContain('To: kunden@werkzeughaus-franken.example');
  });

  it('a request without customer number needs name and e-mail and mails the new-customer address', async () => {
    const invalid = await t.request('POST', '/v1/SupplierCustomers', {
      as: BUYER,
      body: { supplierBpNumber: '200006' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: any) => e.field).sort()).toEqual([
      'body.contactEmail',
      'body.contactName',
      'body.newCustomerPartner',
    ]);

    const res = await t.request('POST', '/v1/SupplierCustomers', {
      as: BUYER,
      body: {
        supplierBpNumber: '200006',
        contactName: 'Erika Einkauf',
        contactEmail: 'einkauf@example.com',
        contactPhone: '0221 12345',
        message: 'Bitte um Rückruf',
        newCustomerPartner: NEW_CUSTOMER,
      },
    });
    expect(res.status).toBe(201);
    const id = await relationId('100001', '200006');
    expect((await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER })).body.relationStatusId).toBe(4);
    const mail = await sentMailTo('neukunden@hydroline.example', 'Neukundenanfrage');
    expect(mail.body_text).toContain('Erika Einkauf');
    expect(mail.body_text).toContain('0221 12345');
    expect(mail.body_text).toContain('Bitte um Rückruf');
    expect(mail.body_text).toContain('Firma: Sanitär Becker GmbH & Co. KG');
    expect(mail.body_text).toContain('Anschrift: Ringstraße 12a, 50667 Köln');
    expect(mail.body_text).toContain('USt-IdNr.: DE123456789');
    expect(mail.reply_to).toBe('einkauf@example.com');
  });

  it('a second request to the same supplier is a conflict; unknown suppliers are 404', async () => {
    const again = await t.request('POST', '/v1/SupplierCustomers', {
      as: BUYER,
      body: { supplierBpNumber: '200001', supplierCustomerNumber: 'X' },
    });
    expect(again.status).toBe(409);
    expect(again.body.title).toBe('Zu diesem Lieferanten besteht bereits eine Geschäftsbeziehung.');
    expect(
      (
        await t.request('POST', '/v1/SupplierCustomers', {
          as: BUYER,
          body: { supplierBpNumber: '100002', supplierCustomerNumber: 'X' },
        })
      ).status,
    ).toBe(404);
  });

  it('the buyer enters the customer number when it was requested', async () => {
    const id = await relationId('100001', '200006');
    const res = await t.request('PUT', `/v1/SupplierCustomers/${id}/SupplierCustomerNumber/HL-99`, { as: BUYER });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ relationStatusId: 2, supplierCustomerNumber: 'HL-99' });
    // Only in CustomerIdRequested.
    expect(
      (await t.request('PUT', `/v1/SupplierCustomers/${id}/SupplierCustomerNumber/HL-100`, { as: BUYER })).status,
    ).toBe(409);
  });

  it('the seller confirms a waiting request; the buyer may not', async () => {
    const id = await relationId('100001', '200002');
    const buyerTry = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: BUYER,
      body: { relationStatusId: 1 },
    });
    expect(buyerTry.status).toBe(409);
    expect(buyerTry.body.title).toBe('Dieser Statuswechsel ist nicht erlaubt.');
    const ok = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: OTHER_SELLER,
      body: { relationStatusId: 1, comments: null, supplierCustomerNumber: 'WK-7781' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.relationStatusId).toBe(1);
    await sentMailTo('info@sanitaer-mueller.example', 'Wärmekontor Rhein-Main: Freigegeben');
  });

  it('rejecting needs a reason; the buyer sees it and requests again', async () => {
    const id = await relationId('100001', '200002');
    const noReason = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: OTHER_SELLER,
      body: { relationStatusId: 3, comments: '' },
    });
    // Removing an approved customer ('Kunden entfernen') needs a reason too; it is stored for the buyer.
    expect(noReason.status).toBe(400);
    expect(noReason.body.title).toBe('Bitte geben Sie einen Grund für die Ablehnung an.');
    expect(noReason.body.errors[0].field).toBe('body.comments');
    const removed = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: OTHER_SELLER,
      body: { relationStatusId: 3, comments: 'Keine Bestellungen seit 2 Jahren' },
    });
    expect(removed.status).toBe(200);
    const buyerView = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: 'einkauf@example.com' });
    expect(buyerView.body).toMatchObject({ relationStatusId: 3, comments: 'Keine Bestellungen seit 2 Jahren' });
    await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: OTHER_SELLER,
      body: { relationStatusId: 1, supplierCustomerNumber: 'WK-7781' },
    });

    const waiting = await relationId('100001', '200006');
    const missing = await t.request('PUT', `/v1/SupplierCustomers/${waiting}`, {
      as: 'verkauf@example.com',
      body: { relationStatusId: 3, comments: '' },
    });
    expect(missing.status).toBe(404); // not its supplier
  });

  it('a seller rejects with a reason, the buyer requests again', async () => {
    const id = await relationId('100003', '200001');
    // put it back to waiting first: seller removes (approved → rejected), buyer requests again
    const removed = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: SELLER,
      body: { relationStatusId: 3, comments: 'Kundennummer passt nicht' },
    });
    expect(removed.status).toBe(200);
    const seen = await t.request('GET', '/v1/SupplierCustomers', { as: BUYER2 });
    expect(seen.body.items[0]).toMatchObject({ relationStatusId: 3, comments: 'Kundennummer passt nicht' });
    const again = await t.request('POST', '/v1/SupplierCustomers', {
      as: BUYER2,
      body: { supplierBpNumber: '200001', supplierCustomerNumber: 'K-10078' },
    });
    expect(again.status).toBe(201);
    const rel = await t.request('GET', `/v1/SupplierCustomers/${id}`, { as: BUYER2 });
    expect(rel.body).toMatchObject({ relationStatusId: 2, supplierCustomerNumber: 'K-10078', comments: null });
    const reject = await t.request('PUT', `/v1/SupplierCustomers/${id}`, { as: SELLER, body: { relationStatusId: 3 } });
    expect(reject.status).toBe(400);
    expect(reject.body.errors[0].field).toBe('body.comments');
    const confirm = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: SELLER,
      body: { relationStatusId: 1 },
    });
    expect(confirm.status).toBe(200);
  });

  it('the seller changes the customer number without changing the status', async () => {
    const id = await relationId('100003', '200001');
    const res = await t.request('PUT', `/v1/SupplierCustomers/${id}/SupplierCustomerNumber/K-20000`, { as: SELLER });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ relationStatusId: 1, supplierCustomerNumber: 'K-20000' });
    const tooLong = await t.request('PUT', `/v1/SupplierCustomers/${id}/SupplierCustomerNumber/${'9'.repeat(101)}`, {
      as: SELLER,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].message).toBe('Maximal 100 Zeichen');
  });

  it('the administrator blocks a relation and it stops being orderable for the buyer', async () => {
    const id = await relationId('100001', '200003');
    const res = await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
      as: 'admin@example.com',
      body: { relationStatusId: 6, comments: 'Zahlungsverzug' },
    });
    expect(res.status).toBe(200);
    expect(
      (
        await t.request('PUT', `/v1/SupplierCustomers/${id}`, {
          as: 'support@example.com',
          body: { relationStatusId: 1 },
        })
      ).status,
    ).toBe(403);
  });
});

describe('staff', () => {
  it('lists all relations with six statuses, filters by partner numbers and shows the audit trail', async () => {
    const all = await t.request('GET', '/v1/PlatformOperator/SupplierCustomers?PageSize=1000', {
      as: 'betrieb@example.com',
    });
    expect(all.status).toBe(200);
    expect(all.body.items.some((r: any) => r.relationStatusId === 6)).toBe(true);
    const bySupplier = await t.request('GET', '/v1/PlatformOperator/SupplierCustomers?SupplierBpNumber=200001', {
      as: 'support@example.com',
    });
    expect(bySupplier.body.items.every((r: any) => r.supplier.bpNumber === '200001')).toBe(true);
    const blocked = await t.request('GET', '/v1/PlatformOperator/SupplierCustomers?RelationsStatusId=6', {
      as: 'admin@example.com',
    });
    expect(blocked.body.items).toHaveLength(1);

    const id = await relationId('100003', '200001');
    const trail = await t.request('GET', `/v1/PlatformOperator/SupplierCustomers/${id}/StatusChanges`, {
      as: 'admin@example.com',
    });
    expect(trail.body.map((c: any) => [c.oldStatusId, c.newStatusId])).toEqual([
      [null, 1],
      [1, 3],
      [3, 2],
      [2, 1],
    ]);
    expect(trail.body[1].changedBy.email).toBe('verkauf@example.com');
    expect(trail.body[1].comments).toBe('Kundennummer passt nicht');
    expect(
      (await t.request('GET', '/v1/PlatformOperator/SupplierCustomers?PageSize=1001', { as: 'admin@example.com' }))
        .status,
    ).toBe(400);
  });
});

describe('supplier reads', () => {
  it('company info, integration info and the onboarding template', async () => {
    const info = await t.request('GET', '/v1/Suppliers/200005/CompanyInfo', { as: BUYER });
    expect(info.body).toMatchObject({
      name: 'KlimaSüd Lüftungstechnik',
      requiredOnboardingForm: true,
      hasOnboardingFormTemplate: true,
    });
    const itek = await t.request('POST', '/v1/Suppliers/ItekIntegrationInfo', {
      as: BUYER,
      body: { supplierBusinessPartnerNumbers: ['200001', '200003'] },
    });
    expect(itek.body.map((i: any) => i.supplierBusinessPartnerNo)).toEqual(['200001', '200003']);
    const pdf = await fetch(`${t.baseUrl}/v1/SupplierOnboardingFormTemplates/200005`, {
      headers: { authorization: `Bearer ${await t.token(BUYER)}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain('Neukundenformular_KlimaSued.pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await t.request('GET', '/v1/SupplierOnboardingFormTemplates/200001', { as: BUYER })).status).toBe(404);
  });

  it('a seller may read the company data of its customers only', async () => {
    expect((await t.request('GET', '/v1/BusinessPartners/100001', { as: SELLER })).status).toBe(200);
    expect((await t.request('GET', '/v1/BusinessPartners/100002', { as: SELLER })).status).toBe(404);
  });
});
