import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus, UNIT_NAMES } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { Format, Protocol, configureSupplier, placeOrder, waitForStatus } from './order-fixtures.ts';

/** The order mail a supplier receives (subject, text, PDF) for an order placed through the real checkout. */

let t: TestApp;
let smtp: SmtpPeer;
const NORDBAD = '200001';
const AQUATHERM = '200003';

beforeAll(async () => {
  smtp = await startSmtpPeer();
  process.env.TRANSMISSION_POLL_MS = '50';
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  await insertTestOffers(t.pool);
  await configureSupplier(t, NORDBAD, { protocol: Protocol.Email, formats: [Format.Pdf], email: 'o@nordbad.example' });
  await configureSupplier(t, AQUATHERM, {
    protocol: Protocol.Email,
    formats: [Format.Pdf],
    email: 'o@aquatherm.example',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** RFC 2047 encoded words of a header (nodemailer writes Q or B encoding). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The supplier's order mail: the buyer's own order mail names the order numbers too and uses the same peer. */
function mailOf(supplierOrderNumber: string, supplierAddress: string) {
  const raw = smtp.messages
    .find((m) => m.raw.toString().includes(supplierOrderNumber) && m.to.every((to) => to === supplierAddress))!
    .raw.toString();
  const headerBlock = raw.split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^Subject: (.*)$/im.exec(headerBlock)![1]);
  // the text part: quoted-printable or base64 (nodemailer picks by content)
  const textPart = raw.split(/Content-Type: text\/plain[^\r\n]*\r\n/i)[1];
  const [partHeaders, ...rest] = textPart.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n').split('\r\n--')[0];
  const text = /base64/i.test(partHeaders)
    ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
    : Buffer.from(
        body
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
  const pdfPart = raw
    .split(`filename=Bestellung_${supplierOrderNumber}.pdf`)[1]
    .split('\r\n\r\n')[1]
    .split('\r\n--')[0];
  const pdf = execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(pdfPart.replace(/\s/g, ''), 'base64') })
    .toString()
    .replaceAll('\u00a0', ' ');
  return { subject, text, pdf };
}

describe('the order mail to a supplier', () => {
  it('leads with the customer order number; units by German name; the PDF names the street of the delivery address', async () => {
    const order = await placeOrder(t, [
      { offer: offers.nordbad, quantity: 3 },
      { offer: offers.aquatherm, quantity: 25 },
    ]);
    const { rows } = await t.pool.query(
      'SELECT street, house_number, postal_code, city FROM business_partners WHERE bp_number = $1',
      ['100001'],
    );
    const buyer = rows[0];
    for (const so of order.supplierOrders) await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const [nordbad, aquatherm] = [
      mailOf(order.supplierOrders[0].number, 'o@nordbad.example'),
      mailOf(order.supplierOrders[1].number, 'o@aquatherm.example'),
    ];

    expect(nordbad.subject.startsWith(`Kundenbestellung ${order.customerOrderNumber}`)).toBe(true);
    expect(nordbad.subject).toContain(`Bestellung ${order.supplierOrders[0].number}`);
    expect(nordbad.text.split('\n')[0]).toMatch(new RegExp(`^Kundenbestellung ${order.customerOrderNumber}\\b`));
    expect(nordbad.text).toContain('Menge 3 Stk');
    expect(aquatherm.text).toContain('Menge 25 m');
    expect(`${nordbad.text}\n${aquatherm.text}`).not.toMatch(/\b(C62|MTR)\b/);

    // no delivery address chosen: the buyer's own, with street, as the EDIFACT NAD+DP names it
    const street = `${buyer.street} ${buyer.house_number}`;
    expect(nordbad.pdf).toContain(`Lieferadresse (für alle Positionen): `);
    expect(nordbad.pdf.replace(/\s+/g, ' ')).toContain(`${street}, ${buyer.postal_code} ${buyer.city}`);
    expect(nordbad.pdf).toMatch(/3 Stk/);
    expect(aquatherm.pdf).toMatch(/25 m\b/);
    expect(aquatherm.pdf).toContain('je 100 m');
  });

  it("the catalogue's unit list names every code of the shared table alike (the UI shows the same names)", async () => {
    const { rows } = await t.pool.query<{ code: string; short_description: string }>(
      'SELECT code, short_description FROM units',
    );
    const superscript = (text: string) => text.replace('^2', '²').replace('^3', '³');
    for (const { code, short_description } of rows)
      if (UNIT_NAMES[code]) expect(superscript(short_description), code).toBe(UNIT_NAMES[code]);
  });
});
