/**
 * A supplier's confirmation changes the order everyone sees: buyer detail and list, staff lists, the seller's
 * overview, the dashboard figures and the reports use the confirmed lines and total, the ordered values stay as
 * 'bestellt'. The buyer is mailed when the order is placed and on every confirmation, change or rejection, as set
 * on 'Mein Profil' (mails read from the SMTP peer the portal delivers to).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { SupplierOrderStatus, businessToday } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers } from '../support/cart-fixtures.ts';
import { readMail } from '../support/mail-text.ts';
import { InboundOrdrspService } from '../../src/modules/supplier-orders/inbound.service.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { BUYER, Protocol, configureEmailSuppliers, placeSentOrder } from '../transmission/order-fixtures.ts';

const SELLER = 'verkauf@example.com'; // seller of supplier 200001 (Nordbad)
const STAFF = 'support@example.com';
const ADMIN = 'admin@example.com';
let t: TestApp;
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  await insertTestOffers(t.pool);
  await configureEmailSuppliers(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const sentOrder = () => placeSentOrder(t);

const confirm = (no: string, status: number, body?: unknown) =>
  t.request('POST', `/v1/SupplierOrders/${no}/Confirmation/${status}`, { as: SELLER, body });

/** Mails to the buyer whose subject contains `needle`, decoded. */
const buyerMails = (needle: string) =>
  smtp.messages
    .filter((m) => m.to.includes(BUYER))
    .map((m) => readMail(m.raw))
    // Amounts are written with a no-break space before '€' (de-DE); compared here with a plain one.
    .map((m) => ({ ...m, text: m.text.replace(/\u00a0/g, ' ') }))
    .filter((m) => m.subject.includes(needle));

const today = businessToday();
const sumOfToday = async () => {
  const res = await t.request(
    'GET',
    `/v1/Dashboard/SupplierOrdersSumNetValue?StartDate=${today}&EndDate=${today}&Grouping=day`,
    { as: ADMIN },
  );
  expect(res.status).toBe(200);
  return res.body.total as number;
};
const sumOfNordbadToday = async () => {
  const res = await t.request(
    'GET',
    `/v1/Dashboard/SupplierOrdersSumNetValueBySeller?StartDate=${today}&EndDate=${today}&Grouping=day&SupplierBpNumber=200001`,
    { as: ADMIN },
  );
  expect(res.status).toBe(200);
  return res.body.total as number;
};

async function csvReport(reportType: number) {
  const r = await t.request('POST', '/v1/Reports/Generate', {
    as: ADMIN,
    body: { reportType, startDate: today, endDate: today, format: 'csv' },
  });
  expect(r.status).toBe(202);
  await eventually(async () => {
    const list = await t.request('GET', '/v1/Reports?Page=1&PageSize=25', { as: ADMIN });
    const done = list.body.items.find((i: any) => i.id === r.body.id);
    return done && done.reportGenerationStatusId === 3;
  }, 90_000);
  const res = await fetch(`${t.baseUrl}/v1/Reports/Download/${r.body.id}`, {
    headers: { authorization: `Bearer ${await t.token(ADMIN)}` },
  });
  const records = parse(Buffer.from(await res.arrayBuffer()), { bom: true, delimiter: ';' }) as string[][];
  const [header, ...rows] = records;
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

const euro = (n: number) => n.toFixed(2).replace('.', ',');

describe('a confirmation with changes changes the order everyone sees', () => {
  it('confirm 3 → 2: detail, lists, seller overview, dashboard and reports use the confirmed values; ordered stays visible', async () => {
    const o = await sentOrder();
    const [sumBefore, nordbadBefore] = [await sumOfToday(), await sumOfNordbadToday()];

    const res = await confirm(o.nordbad, SupplierOrderStatus.ConfirmedWithChanges, {
      lines: [{ lineNo: 1, quantity: 2 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.confirmedTotal).toBeCloseTo(139.98, 2);
    expect(res.body.total).toBeCloseTo(139.98, 2);

    // Buyer's order detail: the line shows 2 and 39,98 €, ordered 3 and 59,97 €; totals confirmed, ordered kept.
    const detail = await t.request('GET', `/v1/CustomerOrders/${o.customerOrderNumber}/Details`, { as: BUYER });
    expect(detail.status).toBe(200);
    const so = detail.body.supplierOrdersDetails.find((s: any) => s.supplierOrderNumber === o.nordbad);
    const line = so.lines.find((l: any) => l.lineNo === 1);
    expect(line).toMatchObject({ quantity: 2, quantityPrice: 39.98, unitPrice: 19.99 });
    expect(line.ordered).toMatchObject({ quantity: 3, quantityPrice: 59.97 });
    expect(line.confirmation.kind).toBe('changed');
    expect(so).toMatchObject({ orderedTotal: 159.97, confirmedTotal: 139.98, total: 139.98 });
    expect(detail.body.orderTotal).toBeCloseTo(139.98 + 250, 2);
    expect(detail.body.orderedTotal).toBeCloseTo(159.97 + 250, 2);

    // The buyer's order list.
    const list = await t.request('GET', '/v1/CustomerOrders?PageSize=100', { as: BUYER });
    const row = list.body.items.find((i: any) => i.orderNumber === o.customerOrderNumber);
    expect(row.totalValueExcludingVat).toBeCloseTo(389.98, 2);
    expect(row.orderedValueExcludingVat).toBeCloseTo(409.97, 2);

    // Staff lists and detail.
    const staffCustomers = await t.request('GET', '/v1/PlatformOperator/CustomerOrders?PageSize=100', { as: STAFF });
    expect(
      staffCustomers.body.items.find((i: any) => i.orderNumber === o.customerOrderNumber).totalValueExcludingVat,
    ).toBeCloseTo(389.98, 2);
    const staffSuppliers = await t.request('GET', '/v1/PlatformOperator/SupplierOrders?PageSize=100', { as: STAFF });
    const staffRow = staffSuppliers.body.items.find((i: any) => i.orderNumber === o.nordbad);
    expect(staffRow.totalValueExcludingVat).toBeCloseTo(139.98, 2);
    expect(staffRow.orderedValueExcludingVat).toBeCloseTo(159.97, 2);
    const staffDetail = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${o.nordbad}`, { as: STAFF });
    expect(staffDetail.body.lines.find((l: any) => l.lineNo === 1).quantity).toBe(2);

    // The seller's overview.
    const overview = await t.request('GET', `/v1/SupplierOrders/overview?SearchTerm=${o.nordbad}`, { as: SELLER });
    expect(overview.body.items[0]).toMatchObject({ totalPrice: 139.98, orderedTotalPrice: 159.97 });

    // Dashboard: the rollup moved by the difference in the confirmation's transaction.
    expect(await sumOfToday()).toBeCloseTo(sumBefore - 19.99, 2);
    expect(await sumOfNordbadToday()).toBeCloseTo(nordbadBefore - 19.99, 2);

    // Reports: supplier orders, their lines and customer orders.
    const supplierRows = await csvReport(1);
    expect(supplierRows.find((r) => r['Lieferantenbestellung'] === o.nordbad)).toMatchObject({
      Nettowert: euro(139.98),
      'Nettowert bestellt': euro(159.97),
      Status: 'Mit Änderungen bestätigt',
    });
    const lineRows = (await csvReport(2)).filter((r) => r['Lieferantenbestellung'] === o.nordbad);
    expect(lineRows.find((r) => r['Position'] === '1')).toMatchObject({
      Menge: '2',
      Positionswert: euro(39.98),
      Bestätigung: 'Geändert',
      'Menge bestellt': '3',
      'Positionswert bestellt': euro(59.97),
    });
    const customerRows = await csvReport(3);
    expect(customerRows.find((r) => r['Kundenbestellung'] === o.customerOrderNumber)).toMatchObject({
      Nettowert: euro(389.98),
      'Nettowert bestellt': euro(409.97),
    });
  }, 180_000);

  it('removed, replaced and added lines count with their confirmed values', async () => {
    const o = await sentOrder();
    const res = await confirm(o.nordbad, SupplierOrderStatus.ConfirmedWithChanges, {
      lines: [
        { lineNo: 1, removed: true },
        { lineNo: 2, replacement: { articleNumber: 'NB-2-NEU', name: 'Nachfolgeartikel' }, unitPrice: 90 },
      ],
      addedLines: [{ articleNumber: 'NB-ZUB', name: 'Zubehörset', quantity: 2, unitPrice: 10 }],
    });
    expect(res.status).toBe(200);
    const byNo = new Map(res.body.lines.map((l: any) => [l.lineNo, l]));
    expect(byNo.get(1)).toMatchObject({ quantity: 0, quantityPrice: 0, ordered: { quantity: 3 } });
    expect(byNo.get(2)).toMatchObject({ articleNumber: 'NB-2-NEU', name: 'Nachfolgeartikel', unitPrice: 90 });
    expect((byNo.get(2) as any).ordered.articleNumber).toBe('TEST-NB-2');
    expect(byNo.get(3)).toMatchObject({ quantity: 2, quantityPrice: 20, ordered: { quantity: 0, quantityPrice: 0 } });
    expect(res.body.total).toBeCloseTo(110, 2);
  });

  it('the transmission status reads "An Lieferant übermittelt"', async () => {
    const statuses = await t.request('GET', '/v1/SupplierOrderStatuses', { as: BUYER });
    expect(statuses.body).toContainEqual({ id: 2, name: 'An Lieferant übermittelt' });
  });
});

describe('the buyer hears about the order', () => {
  it('mails the placed order (number, per supplier lines and totals) and each confirmation, change and rejection', async () => {
    const o = await sentOrder();
    const placed = await eventually(async () =>
      buyerMails(o.customerOrderNumber).find((m) => /eingegangen/.test(m.subject)),
    );
    expect(placed.subject).toBe(`Ihre Bestellung ${o.customerOrderNumber} ist eingegangen`);
    expect(placed.text).toContain(`Lieferantenbestellung ${o.nordbad}`);
    expect(placed.text).toContain(`Lieferantenbestellung ${o.aqua}`);
    expect(placed.text).toMatch(/1\. 3 Stk .+ \(Art\.-Nr\. TEST-NB-1\) – 59,97 €/);
    expect(placed.text).toContain('Warenwert (netto): 159,97 €');
    expect(placed.text).toContain('Warenwert (netto): 250,00 €');
    expect(placed.text).toContain('Gesamt Warenwert (netto): 409,97 €');

    expect(
      (await confirm(o.nordbad, SupplierOrderStatus.ConfirmedWithChanges, { lines: [{ lineNo: 1, quantity: 2 }] }))
        .status,
    ).toBe(200);
    const changed = await eventually(async () => buyerMails(`${o.nordbad} mit Änderungen bestätigt`)[0]);
    expect(changed.text).toContain('Menge bestellt 3, bestätigt 2');
    expect(changed.text).toContain('Warenwert bestellt (netto): 159,97 €');
    expect(changed.text).toContain('Warenwert bestätigt (netto): 139,98 €');

    // A rejection: the supplier removes every line.
    const second = await sentOrder();
    expect(
      (
        await confirm(second.nordbad, SupplierOrderStatus.ConfirmedWithChanges, {
          lines: [
            { lineNo: 1, removed: true },
            { lineNo: 2, removed: true },
          ],
        })
      ).status,
    ).toBe(200);
    const rejected = await eventually(async () => buyerMails(`${second.nordbad} abgelehnt`)[0]);
    expect(rejected.text).toContain('abgelehnt');
    expect(rejected.text).toContain('ENTFERNT');

    const third = await sentOrder();
    expect((await confirm(third.nordbad, SupplierOrderStatus.Confirmed)).status).toBe(200);
    const confirmedMail = await eventually(async () => buyerMails(`${third.nordbad} bestätigt`)[0]);
    const supplierName = (await t.pool.query("SELECT name FROM business_partners WHERE bp_number = '200001'")).rows[0]
      .name;
    expect(confirmedMail.subject).toBe(
      `Bestellung ${third.customerOrderNumber}: ${supplierName} hat ${third.nordbad} bestätigt`,
    );
    expect(confirmedMail.text).toContain('Warenwert bestätigt (netto): 159,97 €');
  }, 180_000);

  it('an ORDRSP that rejects the order (BGM 27) removes every line and mails the rejection', async () => {
    // AquaTherm answers electronically.
    await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', ['200003', Protocol.Http]);
    await new InboundOrdrspService(t).setCredentials('200003', 'aqua-edi', 'aqua-geheim-456');
    try {
      const o = await sentOrder();
      const edi = [
        "UNA:+.? '",
        "UNB+UNOC:3+4012345000009:14+4099999000001:14+250101:1200+42'",
        "UNH+1+ORDRSP:D:96A:UN'",
        "BGM+231+AB-779+27'",
        "DTM+137:20250101:102'",
        `RFF+ON:${o.aqua}'`,
        "UNS+S'",
        "UNT+6+1'",
        "UNZ+1+42'",
      ].join('\n');
      const res = await fetch(`${t.baseUrl}/inbound/ordrsp`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('aqua-edi:aqua-geheim-456').toString('base64')}`,
          'content-type': 'application/edifact',
        },
        body: edi,
      });
      expect(res.status).toBe(200);
      const detail = await t.request('GET', `/v1/CustomerOrders/${o.customerOrderNumber}/Details`, { as: BUYER });
      const aqua = detail.body.supplierOrdersDetails.find((s: any) => s.supplierOrderNumber === o.aqua);
      expect(aqua.total).toBe(0);
      expect(aqua.lines.every((l: any) => l.confirmation.kind === 'removed' && l.quantity === 0)).toBe(true);
      expect(detail.body.orderTotal).toBeCloseTo(159.97, 2);
      const rejected = await eventually(async () => buyerMails(`${o.aqua} abgelehnt`)[0]);
      expect(rejected.text).toContain('abgelehnt. Es wird nichts geliefert.');
    } finally {
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', [
        '200003',
        Protocol.Email,
      ]);
    }
  });

  it('sends only the mails the user chose on "Mein Profil"', async () => {
    const initial = await t.request('GET', '/v1/UserProfile/MailSettings', { as: BUYER });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ orderPlaced: true, orderConfirmed: true, orderChanged: true, orderRejected: true });
    const bad = await t.request('PUT', '/v1/UserProfile/MailSettings', { as: BUYER, body: { orderPlaced: 'ja' } });
    expect(bad.status).toBe(400);
    const saved = await t.request('PUT', '/v1/UserProfile/MailSettings', {
      as: BUYER,
      body: { orderPlaced: false, orderConfirmed: true, orderChanged: false, orderRejected: true },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ orderPlaced: false, orderConfirmed: true, orderChanged: false, orderRejected: true });
    // Per user: the seller's settings are untouched.
    expect((await t.request('GET', '/v1/UserProfile/MailSettings', { as: SELLER })).body.orderPlaced).toBe(true);

    try {
      const o = await sentOrder();
      expect(
        (await confirm(o.nordbad, SupplierOrderStatus.ConfirmedWithChanges, { lines: [{ lineNo: 1, quantity: 1 }] }))
          .status,
      ).toBe(200);
      const second = await sentOrder();
      expect((await confirm(second.nordbad, SupplierOrderStatus.Confirmed)).status).toBe(200);
      // The confirmed mail (on) arrives; neither the placed mails nor the change mail (off) were written at all.
      await eventually(async () => buyerMails(`${second.nordbad} bestätigt`)[0]);
      const { rows } = await t.pool.query(
        'SELECT subject FROM mail_outbox WHERE subject LIKE $1 OR subject LIKE $2 OR subject LIKE $3',
        [
          `%${o.customerOrderNumber} ist eingegangen%`,
          `%${second.customerOrderNumber} ist eingegangen%`,
          `%${o.nordbad} mit Änderungen%`,
        ],
      );
      expect(rows).toEqual([]);
      expect(buyerMails(o.customerOrderNumber)).toEqual([]);
    } finally {
      await t.request('PUT', '/v1/UserProfile/MailSettings', {
        as: BUYER,
        body: { orderPlaced: true, orderConfirmed: true, orderChanged: true, orderRejected: true },
      });
    }
  }, 180_000);
});
