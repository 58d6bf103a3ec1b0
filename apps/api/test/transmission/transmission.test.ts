import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reader } from 'edifact';
import { CustomerOrderStatus, SupplierOrderStatus } from '@shk/contracts';
import { startTestApp, eventually, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import {
  startFtpPeer,
  startHttpPeer,
  startSftpPeer,
  startSmtpPeer,
  type FtpPeer,
  type HttpPeer,
  type SftpPeer,
  type SmtpPeer,
} from '../support/transmission-peers.ts';
import { pdfDocument } from '../../src/lib/pdf.ts';
import { connectAs2Supplier, startAs2Partner, trustPortal, type As2Peer } from '../support/as2-partner.ts';
import {
  BUYER,
  Format,
  Protocol,
  configureSupplier,
  createWorkflow,
  placeOrder,
  statusOf,
  waitForStatus,
} from './order-fixtures.ts';

let t: TestApp;
let smtp: SmtpPeer;
let receiver: HttpPeer;
let sftp: SftpPeer;
let ftp: FtpPeer;
let as2: As2Peer;
const NORDBAD = '200001';
const AQUATHERM = '200003';

type Segment = { name: string; elements: string[][] };
const parseEdifact = (bytes: Buffer): Segment[] =>
  new Reader({ autoDetectEncoding: true }).parse(bytes.toString('latin1')) as Segment[];
const seg = (segments: Segment[], name: string, first?: string) =>
  segments.filter((s) => s.name === name && (first === undefined || s.elements[0][0] === first));
const pdfText = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();

beforeAll(async () => {
  [smtp, receiver, sftp, ftp, as2] = await Promise.all([
    startSmtpPeer(),
    startHttpPeer(),
    startSftpPeer(),
    startFtpPeer(),
    startAs2Partner(),
  ]);
  // Short backoff and few attempts so 'down → retries → SendingFailed' happens within the test.
  process.env.TRANSMISSION_RETRY_BASE_MS = '100';
  process.env.TRANSMISSION_RETRY_MAX_MS = '400';
  process.env.TRANSMISSION_MAX_ATTEMPTS = '3';
  process.env.TRANSMISSION_POLL_MS = '50';
  // The peers run on loopback, an internal address the operator allowlist must name.
  t = await startTestApp({ env: { SMTP_URL: smtp.url, TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } });
  await insertTestOffers(t.pool);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp, receiver, sftp, ftp, as2].map((p) => p?.close()));
});

describe('outbox', () => {
  it('checkout writes the transmission request in the order transaction; the worker sends it and the customer order follows', async () => {
    await configureSupplier(t, NORDBAD, {
      protocol: Protocol.Email,
      formats: [Format.Pdf],
      email: 'bestellung@nordbad.example; lager@nordbad.example',
    });
    const attachment = pdfDocument({ title: 'Aufmaß Bad', lines: ['Raum 1'] });
    const order = await placeOrder(t, [{ offer: offers.nordbadExpensive, quantity: 2, comment: 'Bitte vor 10 Uhr' }], {
      attachment: { name: 'Aufmaß Bad.pdf', content: attachment },
    });
    const [so] = order.supplierOrders;
    const outbox = await t.pool.query(
      'SELECT idempotency_key FROM supplier_order_transmissions WHERE supplier_order_id = $1',
      [so.id],
    );
    expect(outbox.rows[0].idempotency_key).toBe(`shk-${so.number}`);

    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const { rows } = await t.pool.query(
      'SELECT so.sent_at, co.status_id FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id WHERE so.id = $1',
      [so.id],
    );
    expect(rows[0].sent_at).not.toBeNull();
    expect(rows[0].status_id).toBe(CustomerOrderStatus.AwaitingConfirmation);

    // One mail per address of the semicolon list, each with the order PDF and the buyer's attachment (the buyer's
    // own order mail goes through the same SMTP peer).
    const mails = smtp.messages.filter(
      (m) => m.raw.toString().includes(so.number) && m.to.every((to) => to.endsWith('@nordbad.example')),
    );
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['bestellung@nordbad.example', 'lager@nordbad.example']);
    const raw = mails[0].raw.toString();
    expect(raw).toMatch(new RegExp(`Message-ID: <shk-${so.number}\\.\\d@shk-bestellportal>`, 'i'));
    expect(raw).toContain(`filename=Bestellung_${so.number}.pdf`);
    expect(raw).toMatch(/Aufma(ß|%C3%9F)/);

    const log = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, {
      as: 'support@example.com',
    });
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({
      supplierOrderNumber: so.number,
      supplierOrderStatusId: SupplierOrderStatus.Sent,
      state: 'sent',
      attempts: 1,
      log: [{ attemptNo: 1, communicationProtocolId: 1, dataFormatIds: [1], outcome: 'sent', error: null }],
    });
    expect(log.body.log[0].messageId).toContain(`shk-${so.number}.1@`);
  });

  it('the PDF is a German order document: parties, numbers, lines, totals, attachments; umlauts and € render', async () => {
    const { rows } = await t.pool.query(
      `SELECT so.supplier_order_number FROM supplier_orders so WHERE so.supplier_bp_number = $1 ORDER BY id DESC LIMIT 1`,
      [NORDBAD],
    );
    const number = rows[0].supplier_order_number;
    // The supplier's mail (the buyer's own order mail names the order number too).
    const mail = smtp.messages
      .find((m) => m.raw.toString().includes(number) && m.to.every((to) => to.endsWith('@nordbad.example')))!
      .raw.toString();
    const part = mail.split(`filename=Bestellung_${number}.pdf`)[1].split('\r\n\r\n')[1].split('\r\n--')[0];
    const text = pdfText(Buffer.from(part.replace(/\s/g, ''), 'base64'));
    expect(text).toContain(`Bestellung ${number}`);
    expect(text).toContain('Kundennummer beim Lieferanten: K-10001');
    expect(text).toContain('Geschäftspartnernummer: 100001');
    expect(text).toContain('Art.-Nr. TEST-NB-2');
    expect(text).toContain('GTIN 4000000000055');
    expect(text).toContain('Wärmepumpe Test');
    expect(text).toContain('Notiz: Bitte vor 10 Uhr');
    expect(text).toMatch(/200,00\s€/);
    expect(text).toContain('Lieferkosten (netto)');
    expect(text).toContain('Anhang: Aufmaß Bad.pdf');
  });

  it('a failed channel is retried with backoff, then SendingFailed with the reason; Erneut senden delivers exactly once', async () => {
    const workflow = await createWorkflow(t, {
      name: 'Nordbad HTTP',
      communicationProtocol: Protocol.Http,
      baseUrl: receiver.url,
      userName: 'nordbad',
      password: 'http-geheim',
      timeoutMs: 2000,
    });
    await configureSupplier(t, NORDBAD, { protocol: Protocol.Http, formats: [Format.Pdf], workflowId: workflow.id });
    receiver.mode = 'down';
    const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
    const failed = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, {
      as: 'admin@example.com',
    });
    expect(failed.body.state).toBe('failed');
    expect(failed.body.lastError).toContain('HTTP 503');
    expect(failed.body.log.map((a: any) => a.outcome)).toEqual(['failed', 'failed', 'failed']);
    const customer = await t.pool.query(
      'SELECT co.status_id FROM customer_orders co JOIN supplier_orders so ON so.customer_order_id = co.id WHERE so.id = $1',
      [so.id],
    );
    expect(customer.rows[0].status_id).toBe(CustomerOrderStatus.Created);

    // Only staff resend; a buyer is refused, an unknown number is a 404.
    expect(
      (await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, { as: BUYER })).status,
    ).toBe(403);
    const unknown = await t.request('POST', '/v1/PlatformOperator/SupplierOrders/LB-999999999/Resend', {
      as: 'support@example.com',
    });
    expect(unknown.status).toBe(404);

    receiver.mode = 'up';
    const resend = await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, {
      as: 'support@example.com',
    });
    expect(resend.status).toBe(202);
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const delivered = [...receiver.stored.values()].filter((r) => r.headers['x-order-number'] === so.number);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].headers['idempotency-key']).toBe(`shk-${so.number}-1`);
    expect(delivered[0].headers.authorization).toBe(`Basic ${Buffer.from('nordbad:http-geheim').toString('base64')}`);
    expect(delivered[0].headers['content-type']).toBe('application/pdf');
    expect(delivered[0].body.subarray(0, 5).toString()).toBe('%PDF-');

    // A Sent order is not resent.
    const again = await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, {
      as: 'betrieb@example.com',
    });
    expect(again.status).toBe(409);
    expect(again.body.title).toBe(
      'Nur Bestellungen mit dem Status „Versand fehlgeschlagen“ können erneut gesendet werden.',
    );
  });

  it('Erneut senden starts a fresh retry series: while the channel is still down it fails only after the full series', async () => {
    const workflow = await createWorkflow(t, {
      name: 'Nordbad HTTP (Wiederholung)',
      communicationProtocol: Protocol.Http,
      baseUrl: receiver.url,
      timeoutMs: 2000,
    });
    await configureSupplier(t, NORDBAD, { protocol: Protocol.Http, formats: [Format.Pdf], workflowId: workflow.id });
    receiver.mode = 'down';
    const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 2 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
    const log = () =>
      t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, { as: 'admin@example.com' });
    expect((await log()).body.attempts).toBe(3); // TRANSMISSION_MAX_ATTEMPTS = 3

    // Resend while the receiver is still down: a whole new series of 3 attempts, not a single one.
    const resend = await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, {
      as: 'support@example.com',
    });
    expect(resend.status).toBe(202);
    const failedAgain = await eventually(async () => {
      const res = await log();
      return res.body.state === 'failed' ? res.body : null;
    }, 20_000);
    expect(failedAgain.attempts).toBe(6);
    expect(failedAgain.log.map((a: any) => a.outcome)).toEqual(Array(6).fill('failed'));
    expect(failedAgain.log.map((a: any) => a.attemptNo)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.SendingFailed);

    // The channel is back: the next resend delivers exactly once.
    receiver.mode = 'up';
    expect(
      (await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, { as: 'admin@example.com' }))
        .status,
    ).toBe(202);
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const delivered = [...receiver.stored.values()].filter((r) => r.headers['x-order-number'] === so.number);
    expect(delivered).toHaveLength(1);
    // 6 refused requests while down, then one accepted: nothing went out twice.
    expect(receiver.requests.filter((r) => r.headers['x-order-number'] === so.number)).toHaveLength(7);
    const sent = (await log()).body;
    expect(sent.state).toBe('sent');
    expect(sent.log.map((a: any) => a.outcome)).toEqual([...Array(6).fill('failed'), 'sent']);
  });

  it('a supplier without interface settings fails at once (no retry can fix it) with a German reason', async () => {
    await configureSupplier(t, NORDBAD, { protocol: Protocol.Sftp, formats: [Format.Edi_96A], folder: '/inbox' });
    const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
    const log = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, {
      as: 'admin@example.com',
    });
    expect(log.body.attempts).toBe(1);
    expect(log.body.lastError).toBe('Kein Workflow (Verbindungsprofil) für SFTP hinterlegt');
  });
});

describe('formats over channels', () => {
  it('EDIFACT ORDERS D.96A over SFTP: unique temporary name, size checked, then rename; parsed back field by field', async () => {
    const workflow = await createWorkflow(t, {
      name: 'Nordbad SFTP',
      communicationProtocol: Protocol.Sftp,
      host: '127.0.0.1',
      port: sftp.port,
      userName: sftp.user,
      password: sftp.password,
    });
    await t.pool.query("UPDATE suppliers SET gln = '4012345000009' WHERE bp_number = $1", [NORDBAD]);
    await configureSupplier(t, NORDBAD, {
      protocol: Protocol.Sftp,
      formats: [Format.Edi_96A],
      folder: '/inbox',
      workflowId: workflow.id,
    });
    const [so] = (
      await placeOrder(t, [
        { offer: offers.nordbad, quantity: 3, comment: "Anlieferung: Tor 2+3 ('Hof')" },
        { offer: offers.nordbadExpensive, quantity: 1 },
      ])
    ).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const name = `/inbox/ORDERS_${so.number}.edi`;
    const { messageId } = (
      await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, {
        as: 'admin@example.com',
      })
    ).body.log[0];
    expect(messageId).toMatch(/^1-[0-9a-f]{8}$/);
    expect(sftp.events.filter((e) => e.includes(so.number))).toEqual([
      `write /inbox/.ORDERS_${so.number}.edi.${messageId}.part`,
      `rename /inbox/.ORDERS_${so.number}.edi.${messageId}.part -> ${name}`,
    ]);
    const segments = parseEdifact(sftp.files.get(name)!);
    expect(segments[0]).toMatchObject({ name: 'UNB' });
    expect(segments[0].elements[0]).toEqual(['UNOC', '3']);
    expect(segments[0].elements[1]).toEqual(['4399902421007', '14']);
    expect(segments[0].elements[2]).toEqual(['4012345000009', '14']);
    expect(seg(segments, 'UNH')[0].elements[1]).toEqual(['ORDERS', 'D', '96A', 'UN', 'EAN008']);
    expect(seg(segments, 'BGM')[0].elements).toEqual([['220'], [so.number], ['9']]);
    expect(seg(segments, 'DTM', '137')).toHaveLength(1);
    expect(seg(segments, 'NAD', 'BY')[0].elements[1]).toEqual(['K-10001', '', '91']);
    expect(seg(segments, 'NAD', 'SU')[0].elements[1]).toEqual(['4012345000009', '', '9']);
    expect(seg(segments, 'NAD', 'DP')).toHaveLength(1);
    expect(seg(segments, 'CUX')[0].elements[0]).toEqual(['2', 'EUR', '9']);
    const lines = seg(segments, 'LIN');
    expect(lines.map((l) => l.elements[2])).toEqual([
      ['4000000000017', 'EN'],
      ['4000000000055', 'EN'],
    ]);
    expect(seg(segments, 'PIA', '5').map((p) => p.elements[1])).toEqual([
      ['TEST-NB-1', 'SA'],
      ['TEST-NB-2', 'SA'],
    ]);
    expect(seg(segments, 'IMD')[0].elements[2]).toEqual(['', '', '', 'Thermostatventil Testserie DN15']);
    expect(seg(segments, 'QTY').map((q) => q.elements[0])).toEqual([
      ['21', '3', 'C62'],
      ['21', '1', 'C62'],
    ]);
    expect(seg(segments, 'PRI')[0].elements[0]).toEqual(['AAA', '19.99', '', '', '1', 'C62']);
    // The release character keeps + ' : inside the note.
    expect(seg(segments, 'FTX', 'LIN')[0].elements[3]).toEqual(["Anlieferung: Tor 2+3 ('Hof')"]);
    expect(seg(segments, 'MOA', '79')[0].elements[0]).toEqual(['79', '159.97']);
    expect(seg(segments, 'CNT')[0].elements[0]).toEqual(['2', '2']);
    const unh = segments.findIndex((s) => s.name === 'UNH');
    const unt = segments.findIndex((s) => s.name === 'UNT');
    expect(Number(segments[unt].elements[0][0])).toBe(unt - unh + 1);
    expect(seg(segments, 'UNZ')[0].elements).toEqual([['1'], [segments[0].elements[4][0]]]);
  });

  it('a file of the same name is never taken as delivered: a repeat after a crash uploads under a unique name', async () => {
    const { rows } = await t.pool.query(
      'SELECT so.id, so.supplier_order_number FROM supplier_orders so WHERE so.supplier_bp_number = $1 AND so.status_id = 2 ORDER BY id DESC LIMIT 1',
      [NORDBAD],
    );
    const number = rows[0].supplier_order_number;
    const before = sftp.events.length;
    // Simulate the crash window: the row is back in 'sending' with an expired lease, the order still Created.
    await t.pool.query('UPDATE supplier_orders SET status_id = 1 WHERE id = $1', [rows[0].id]);
    await t.pool.query(
      "UPDATE supplier_order_transmissions SET state = 'sending', locked_until = now() - interval '1 second' WHERE supplier_order_id = $1",
      [rows[0].id],
    );
    await waitForStatus(t, number, SupplierOrderStatus.Sent);
    // The name alone proves nothing (it may be another order's or the supplier's file): the bytes go again,
    // under the order number plus this attempt's message id; the existing file is left alone.
    const events = sftp.events.slice(before);
    expect(events).toHaveLength(2);
    const unique = /-> (\/inbox\/ORDERS_[^ ]+_\d+-[0-9a-f]{8}\.edi)$/.exec(events[1])![1];
    expect(unique.startsWith(`/inbox/ORDERS_${number}_`)).toBe(true);
    expect(sftp.files.get(unique)!.toString('latin1')).toContain(`BGM+220+${number}`);
  });

  it('EDIFACT ORDERS D.97A over FTP into the supplier folder', async () => {
    const workflow = await createWorkflow(t, {
      name: 'AquaTherm FTP',
      communicationProtocol: Protocol.Ftp,
      host: '127.0.0.1',
      port: ftp.port,
      userName: ftp.user,
      password: ftp.password,
    });
    await configureSupplier(t, AQUATHERM, {
      protocol: Protocol.Ftp,
      formats: [Format.Edi_97A],
      folder: '/inbox',
      workflowId: workflow.id,
    });
    const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 20 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const files = fs.readdirSync(path.join(ftp.root, 'inbox'));
    expect(files).toContain(`ORDERS_${so.number}.edi`);
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
    const segments = parseEdifact(fs.readFileSync(path.join(ftp.root, 'inbox', `ORDERS_${so.number}.edi`)));
    expect(seg(segments, 'UNH')[0].elements[1]).toEqual(['ORDERS', 'D', '97A', 'UN']);
    expect(seg(segments, 'NAD', 'BY')[0].elements[1]).toEqual(['AT-55501', '', '91']);
    expect(seg(segments, 'QTY')[0].elements[0]).toEqual(['21', '20', 'MTR']);
    expect(seg(segments, 'PRI')[0].elements[0]).toEqual(['AAA', '125', '', '', '100', 'MTR']);
  });

  it('API: a JSON envelope with bearer token; the returned order id is kept', async () => {
    const workflow = await createWorkflow(t, {
      name: 'AquaTherm API',
      communicationProtocol: Protocol.Api,
      baseUrl: receiver.url,
      password: 'api-token-123',
    });
    await configureSupplier(t, AQUATHERM, {
      protocol: Protocol.Api,
      formats: [Format.Edi_96A, Format.Pdf],
      workflowId: workflow.id,
    });
    const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const got = receiver.stored.get(`shk-${so.number}`)!;
    expect(got.headers.authorization).toBe('Bearer api-token-123');
    const body = JSON.parse(got.body.toString());
    expect(body).toMatchObject({ supplierOrderNumber: so.number, supplierCustomerNumber: 'AT-55501', isTest: false });
    expect(body.documents.map((d: any) => d.fileName)).toEqual([
      `ORDERS_${so.number}.edi`,
      `Bestellung_${so.number}.pdf`,
    ]);
    const { rows } = await t.pool.query('SELECT external_order_id FROM supplier_orders WHERE id = $1', [so.id]);
    expect(rows[0].external_order_id).toBe(`EXT-shk-${so.number}`);
  });

  it('AS2: a signed message to the supplier, MDN checked; a test supplier gets orders marked as tests', async () => {
    trustPortal(as2, t);
    await connectAs2Supplier(t, as2, AQUATHERM, { name: 'Aquatherm AS2', supplier: { status: 3 } });
    const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
    expect(so.isTest).toBe(true);
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    expect(as2.rejected).toEqual([]);
    const message = as2.received.get(`<shk-${so.number}-2@SHKPORTAL>`)!;
    expect(message.headers['as2-from']).toBe('SHKPORTAL');
    expect(message.signer).toContain('SHKPORTAL');
    const segments = parseEdifact(message.content);
    expect(segments[0].elements.at(-1)).toEqual(['1']); // UNB test indicator
    expect(seg(segments, 'BGM')[0].elements[1]).toEqual([so.number]);
  });
});

describe('workflows and mail', () => {
  it('GET /v1/Workflow lists profiles per protocol without secrets; secrets are encrypted at rest', async () => {
    const res = await t.request('GET', '/v1/Workflow?communicationProtocol=2', { as: 'admin@example.com' });
    expect(res.status).toBe(200);
    const mine = res.body.find((w: any) => w.name === 'Nordbad SFTP');
    expect(mine).toMatchObject({ communicationProtocol: 2, host: '127.0.0.1', userName: 'lieferant', hasSecret: true });
    expect(JSON.stringify(res.body)).not.toContain(sftp.password);
    expect(res.body.every((w: any) => w.communicationProtocol === 2)).toBe(true);
    const { rows } = await t.pool.query('SELECT secret_encrypted FROM workflows WHERE id = $1', [mine.id]);
    expect(rows[0].secret_encrypted).toMatch(/^v1:/);
    expect(rows[0].secret_encrypted).not.toContain(sftp.password);
    expect((await t.request('GET', '/v1/Workflow?communicationProtocol=9', { as: 'admin@example.com' })).status).toBe(
      400,
    );
    expect((await t.request('GET', '/v1/Workflow', { as: 'verkauf@example.com' })).status).toBe(403);
  });

  it('the mail sweeper redelivers a mail whose job was lost, and only once', async () => {
    const { rows } = await t.pool.query(
      `INSERT INTO mail_outbox (to_address, subject, body_text, created_at) VALUES ('verloren@example.com', 'Verlorene Mail', 'Text', now() - interval '5 minutes') RETURNING id`,
    );
    const id = Number(rows[0].id);
    expect(await t.mail.sweep()).toBeGreaterThanOrEqual(1);
    expect(await t.mail.sweep()).toBe(0); // its job is queued now: not swept twice
    await eventually(async () => {
      const r = await t.pool.query('SELECT status FROM mail_outbox WHERE id = $1', [id]);
      return r.rows[0].status === 'sent';
    });
    expect(smtp.messages.filter((m) => m.raw.toString().includes('Verlorene Mail'))).toHaveLength(1);
    expect(smtp.messages.find((m) => m.raw.toString().includes('Verlorene Mail'))!.raw.toString()).toContain(
      `<mail-${id}@`,
    );
  });

  it('the sweeper requeues a Created supplier order that has no transmission request', async () => {
    await configureSupplier(t, NORDBAD, {
      protocol: Protocol.Email,
      formats: [Format.Pdf],
      email: 'b@nordbad.example',
    });
    const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    await t.pool.query('DELETE FROM supplier_order_transmissions WHERE supplier_order_id = $1', [so.id]);
    await t.pool.query('UPDATE supplier_orders SET status_id = 1 WHERE id = $1', [so.id]);
    const { sweepOrphans } = await import('../../src/modules/transmission/transmission.repo.ts');
    expect(await sweepOrphans(t.pool)).toBe(1);
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.Sent);
  });
});
