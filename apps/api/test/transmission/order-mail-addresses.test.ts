import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { pdfDocument } from '../../src/lib/pdf.ts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { Format, Protocol, configureSupplier, placeOrder, waitForStatus } from './order-fixtures.ts';

/**
 * Order mails through the real checkout, the transmission worker and SMTP to a smtp-server peer: a mail to several
 * addresses is composed once (each address its own message), and the SMTP connections are pooled — reused between
 * mails, replaced when the server closed one, and no mail is sent twice.
 */

let t: TestApp;
let smtp: SmtpPeer;
const NORDBAD = '200001';
const AQUATHERM = '200003';
const NORDBAD_ADDRESSES = ['a@nordbad.example', 'b@nordbad.example', 'c@nordbad.example'];
/** The peer closes a connection idle this long, as mail servers do (much shorter here). */
const SERVER_IDLE_CLOSE_MS = 1500;

beforeAll(async () => {
  smtp = await startSmtpPeer({ socketTimeoutMs: SERVER_IDLE_CLOSE_MS });
  process.env.TRANSMISSION_POLL_MS = '50';
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  await insertTestOffers(t.pool);
  await configureSupplier(t, NORDBAD, {
    protocol: Protocol.Email,
    formats: [Format.Pdf, Format.Edi_96A],
    email: NORDBAD_ADDRESSES.join('; '),
  });
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

/** The messages the peer received for a supplier order, to the supplier's addresses (the buyer's mail aside). */
const supplierMails = (supplierOrderNumber: string, addresses: string[]) =>
  smtp.messages.filter((m) => m.raw.includes(supplierOrderNumber) && m.to.length === 1 && addresses.includes(m.to[0]));

/** Header block (unfolded lines) and body of a received message. */
function split(raw: Buffer) {
  const end = raw.indexOf('\r\n\r\n');
  const headers = raw
    .subarray(0, end)
    .toString('latin1')
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n');
  return { headers, body: raw.subarray(end + 4) };
}

describe('order mails to the supplier', () => {
  it('one mail to three addresses: one message each, the same parts and attachments byte for byte, own To and Message-ID', async () => {
    const order = await placeOrder(t, [{ offer: offers.nordbad, quantity: 3 }], {
      attachment: { name: 'Aufmaß.pdf', content: pdfDocument({ title: 'Aufmaß', lines: ['Raum 1'] }) },
    });
    const number = order.supplierOrders[0].number;
    await waitForStatus(t, number, SupplierOrderStatus.Sent);

    const mails = supplierMails(number, NORDBAD_ADDRESSES);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(NORDBAD_ADDRESSES);
    const parts = mails.map((m) => split(m.raw));
    // Composed once: the same body bytes (text, PDF, EDIFACT and the buyer's attachment, same MIME boundary) for all.
    for (const p of parts.slice(1)) expect(p.body.equals(parts[0].body)).toBe(true);
    expect(parts[0].body.toString('latin1')).toContain(`filename=Bestellung_${number}.pdf`);
    expect(parts[0].body.toString('latin1')).toContain(`filename=ORDERS_${number}.edi`);
    // The header: the same lines but To and Message-ID, which are the address's own.
    const other = (h: string[]) => h.filter((line) => !/^(To|Message-ID):/i.test(line));
    for (const p of parts.slice(1)) expect(other(p.headers)).toEqual(other(parts[0].headers));
    for (const [i, m] of mails.entries()) {
      const n = NORDBAD_ADDRESSES.indexOf(m.to[0]) + 1;
      expect(parts[i].headers).toContain(`To: ${m.to[0]}`);
      expect(parts[i].headers).toContain(`Message-ID: <shk-${number}.${n}@shk-bestellportal>`);
    }

    // Every message recorded as sent in the mail outbox, and named in the attempt log.
    const outbox = await t.pool.query<{ to_address: string; message_id: string; status: string }>(
      `SELECT to_address, message_id, status FROM mail_outbox WHERE message_id LIKE $1 ORDER BY to_address`,
      [`<shk-${number}.%`],
    );
    expect(outbox.rows).toEqual(
      NORDBAD_ADDRESSES.map((to, i) => ({
        to_address: to,
        message_id: `<shk-${number}.${i + 1}@shk-bestellportal>`,
        status: 'sent',
      })),
    );
    const log = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${number}/Transmissions`, {
      as: 'support@example.com',
    });
    expect(log.status).toBe(200);
    expect(log.body.log.at(-1).remoteNames).toEqual(NORDBAD_ADDRESSES);
  });

  it('reuses a pooled SMTP connection; a connection the server closed is replaced and no mail is sent twice', async () => {
    const connectionsBefore = smtp.connections();
    const messagesBefore = smtp.messages.length;
    const first = await placeOrder(t, [
      { offer: offers.nordbad, quantity: 2 },
      { offer: offers.aquatherm, quantity: 10 },
    ]);
    for (const so of first.supplierOrders) await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    // Four supplier mails and the buyer's confirmation: fewer connections than mails (the pool reuses them).
    await eventually(async () => smtp.messages.length - messagesBefore >= 5, 20_000);
    expect(smtp.connections() - connectionsBefore).toBeLessThan(smtp.messages.length - messagesBefore);

    // The server closes the idle connections; the next mails go out on new ones, each exactly once.
    await sleep(SERVER_IDLE_CLOSE_MS * 2);
    const connectionsAfterIdle = smtp.connections();
    const second = await placeOrder(t, [{ offer: offers.aquatherm, quantity: 20 }]);
    await waitForStatus(t, second.supplierOrders[0].number, SupplierOrderStatus.Sent);
    expect(smtp.connections()).toBeGreaterThan(connectionsAfterIdle);
    for (const so of [...first.supplierOrders, ...second.supplierOrders]) {
      const addresses = so.number === first.supplierOrders[0].number ? NORDBAD_ADDRESSES : ['o@aquatherm.example'];
      const mails = supplierMails(so.number, addresses);
      expect(mails.map((m) => m.to[0]).sort(), so.number).toEqual([...addresses].sort());
    }
    const attempts = await t.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM supplier_order_transmission_attempts a JOIN supplier_orders so ON so.id = a.supplier_order_id
        WHERE so.supplier_order_number = ANY($1) AND a.outcome <> 'sent'`,
      [[...first.supplierOrders, ...second.supplierOrders].map((so) => so.number)],
    );
    expect(attempts.rows[0].n).toBe(0);
  });
});
