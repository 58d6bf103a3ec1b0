/**
 * AS2 against a partner built on OpenSSL's `cms` command (test/support/transmission-peers.ts): it decrypts
 * with its key, verifies our signature against our certificate only and returns MDNs signed with
 * `openssl cms -sign` that name the MIC algorithm 'SHA-256', as other AS2 stacks write it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reader } from 'edifact';
import http from 'node:http';
import { SupplierOrderStatus, outboundMessages } from '@shk/contracts';
import { startTestApp, eventually, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import {
  certificateMaker,
  connectAs2Supplier,
  startAs2Partner,
  trustPortal,
  type As2Peer,
} from '../support/as2-partner.ts';
import { loadAs2Identity } from '../../src/modules/transmission/channels/as2.ts';
import { micsEqual } from '../../src/modules/transmission/channels/as2-mdn.ts';
import { mailCertificateWarnings } from '../../src/modules/transmission/as2.service.ts';
import { Protocol, createWorkflow, placeOrder, statusOf, waitForStatus } from './order-fixtures.ts';

let t: TestApp;
let as2: As2Peer;
const AQUATHERM = '200003';
const ADMIN = 'admin@example.com';
const certificates = certificateMaker();

type Segment = { name: string; elements: string[][] };
const bgm = (bytes: Buffer) =>
  (new Reader({ autoDetectEncoding: true }).parse(bytes.toString('latin1')) as Segment[]).find((s) => s.name === 'BGM')!
    .elements[1][0];

beforeAll(async () => {
  as2 = await startAs2Partner('AQUA-AS2', { inspect: true });
  process.env.TRANSMISSION_RETRY_BASE_MS = '100';
  process.env.TRANSMISSION_RETRY_MAX_MS = '300';
  process.env.TRANSMISSION_MAX_ATTEMPTS = '2';
  process.env.TRANSMISSION_POLL_MS = '50';
  process.env.AS2_ASYNC_MDN_WAIT_MS = '15000';
  process.env.TRANSMISSION_ALLOWED_HOSTS = '127.0.0.1'; // the OpenSSL partner listens on loopback
  t = await startTestApp();
  await insertTestOffers(t.pool);
  trustPortal(as2, t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await as2?.close();
  certificates.remove();
});

let workflowNo = 0;
const as2Supplier = (settings: { as2Encryption?: 'none' | 'aes128' | 'aes256'; as2MdnMode?: 'sync' | 'async' }) =>
  connectAs2Supplier(t, as2, AQUATHERM, { name: `Aquatherm AS2 ${++workflowNo}`, workflow: settings });

const orderAquatherm = async () => (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders[0];
const messageIdOf = (orderNumber: string) => `<shk-${orderNumber}-2@SHKPORTAL>`;

describe('AS2 with an OpenSSL partner', () => {
  it('follows no redirect: a partner URL that answers 302 fails the order naming the redirect, nothing is sent on', async () => {
    const received = as2.received.size;
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: as2.url }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const { port } = redirector.address() as import('node:net').AddressInfo;
    try {
      await connectAs2Supplier(t, as2, AQUATHERM, {
        name: `Aquatherm AS2 ${++workflowNo}`,
        url: `http://127.0.0.1:${port}/as2`,
      });
      const so = await orderAquatherm();
      await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
      const { rows } = await t.pool.query(
        'SELECT a.error FROM supplier_order_transmission_attempts a WHERE a.supplier_order_id = $1',
        [so.id],
      );
      expect(rows.map((r) => r.error)).toContain(outboundMessages.redirect(302, as2.url));
      expect(as2.received.size).toBe(received);
    } finally {
      redirector.close();
    }
  });
  it('round trip: encrypted (AES-256) and signed, OpenSSL decrypts and verifies, its signed MDN says SHA-256: Versendet', async () => {
    as2.mdnSigner = 'partner';
    as2.micAlgorithm = 'SHA-256';
    await as2Supplier({ as2Encryption: 'aes256' });
    const so = await orderAquatherm();
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    expect(as2.rejected).toEqual([]);
    const message = as2.received.get(messageIdOf(so.number))!;
    expect(message.cipher).toBe('aes-256-cbc');
    expect(message.headers['content-type']).toMatch(/^application\/pkcs7-mime; smime-type=enveloped-data/);
    expect(message.headers['disposition-notification-options']).toMatch(/signed-receipt-protocol=required/);
    expect(message.signer).toContain('SHKPORTAL');
    expect(bgm(message.content)).toBe(so.number);
    const log = await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${so.number}/Transmissions`, { as: ADMIN });
    expect(log.body.log).toHaveLength(1);
    expect(log.body.log[0]).toMatchObject({ outcome: 'sent', messageId: messageIdOf(so.number) });
  });

  it('AES-128 as the workflow says, and a message that is only signed when encryption is off', async () => {
    await as2Supplier({ as2Encryption: 'aes128' });
    const first = await orderAquatherm();
    await waitForStatus(t, first.number, SupplierOrderStatus.Sent);
    expect(as2.received.get(messageIdOf(first.number))!.cipher).toBe('aes-128-cbc');

    // This time the partner signs its MDN in text mode: OpenSSL writes LF line ends around the MIME boundaries.
    await as2Supplier({ as2Encryption: 'none' });
    as2.mdnSigning = 'text';
    const second = await orderAquatherm();
    await waitForStatus(t, second.number, SupplierOrderStatus.Sent).finally(() => (as2.mdnSigning = 'binary'));
    const plain = as2.received.get(messageIdOf(second.number))!;
    expect(plain.cipher).toBeNull();
    expect(plain.headers['content-type']).toMatch(/^multipart\/signed/);
  });

  it('an MDN signed by a certificate that is not the partner’s is refused: the order is not reported sent', async () => {
    await as2Supplier({ as2Encryption: 'aes256' });
    as2.mdnSigner = 'foreign';
    try {
      const so = await orderAquatherm();
      await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
      const { rows } = await t.pool.query(
        `SELECT a.error FROM supplier_order_transmission_attempts a WHERE a.supplier_order_id = $1 ORDER BY attempt_no`,
        [so.id],
      );
      expect(rows.length).toBe(2);
      for (const r of rows) expect(r.error).toBe('AS2: Signatur der MDN passt nicht zum Zertifikat des Partners');
      // The partner did get the message: only the receipt was not trustworthy.
      expect(as2.received.has(messageIdOf(so.number))).toBe(true);
    } finally {
      as2.mdnSigner = 'partner';
    }
  });

  it('MIC algorithm names compare as RFC 5751 and RFC 4130 allow', () => {
    const value = 'q1w2e3r4t5y6u7i8o9p0q1w2e3r4t5y6u7i8o9p0abc=';
    for (const name of ['sha-256', 'sha256', 'SHA-256', 'SHA256', ' Sha-256 '])
      expect(micsEqual(`${value}, ${name}`, `${value}, sha-256`)).toBe(true);
    expect(micsEqual(`${value}, SHA1`, `${value}, sha-1`)).toBe(true);
    expect(micsEqual(`${value}, sha1`, `${value}, sha-256`)).toBe(false);
    expect(micsEqual(`x${value}, sha-256`, `${value}, sha-256`)).toBe(false);
  });
});

describe('asynchronous MDNs', () => {
  it('the partner posts the signed MDN to our URL later; matched by Message-ID, verified, recorded once', async () => {
    await as2Supplier({ as2Encryption: 'aes256', as2MdnMode: 'async' });
    const so = await orderAquatherm();
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    const messageId = messageIdOf(so.number);
    const message = as2.received.get(messageId)!;
    expect(message.headers['receipt-delivery-option']).toBe(`${t.config.publicUrl}/inbound/as2/mdn`);
    expect(as2.asyncMdnStatuses.at(-1)).toBe(200);
    const row = async () =>
      (await t.pool.query('SELECT state, mic, mdn_received_at FROM as2_messages WHERE message_id = $1', [messageId]))
        .rows[0];
    const recorded = await row();
    expect(recorded.state).toBe('processed');

    // A repeated MDN is acknowledged and changes nothing.
    const mic = recorded.mic.split(',')[0];
    const again = await as2.signedMdn(messageId, mic);
    const post = (mdn: { contentType: string; body: Buffer }) =>
      fetch(`${t.config.publicUrl}/inbound/as2/mdn`, {
        method: 'POST',
        headers: { 'content-type': mdn.contentType },
        body: new Uint8Array(mdn.body),
      });
    const repeated = await post(again);
    expect(repeated.status).toBe(200);
    expect(await repeated.text()).toContain('lag bereits vor');
    expect((await row()).mdn_received_at).toEqual(recorded.mdn_received_at);

    // Signed by a foreign key: refused, nothing recorded. Unknown message: 404.
    expect((await post(await as2.signedMdn(messageId, mic, 'foreign'))).status).toBe(400);
    expect((await post(await as2.signedMdn('<unbekannt@SHKPORTAL>', mic))).status).toBe(404);
    expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.Sent);
  });
});

describe('certificates in the workflow', () => {
  it('staff upload the partner certificate as PEM or DER and see subject, issuer, fingerprint and expiry', async () => {
    const der = Buffer.from(as2.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const created = await t.request('POST', '/v1/Workflow', {
      as: ADMIN,
      body: {
        name: 'AS2 DER-Upload',
        communicationProtocol: 3,
        partnerCertificate: der.toString('base64'),
        as2Encryption: 'aes128',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ communicationProtocol: 3, as2Encryption: 'aes128', as2MdnMode: 'sync' });
    expect(created.body.partnerCertificate).toMatchObject({
      subject: 'CN=AQUA-AS2, O=Testpartner GmbH',
      issuer: 'CN=AQUA-AS2, O=Testpartner GmbH',
    });
    expect(created.body.partnerCertificate.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(created.body.partnerCertificate.daysLeft).toBeGreaterThan(360);

    const updated = await t.request('PUT', `/v1/Workflow/${created.body.id}`, {
      as: ADMIN,
      body: { name: 'AS2 DER-Upload', communicationProtocol: 3, partnerCertificate: as2.certificatePem },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.partnerCertificate.fingerprintSha256).toBe(created.body.partnerCertificate.fingerprintSha256);

    const bad = await t.request('POST', '/v1/Workflow', {
      as: ADMIN,
      body: { name: 'AS2 kaputt', communicationProtocol: 3, partnerCertificate: 'kein Zertifikat' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toContain('Das Zertifikat konnte nicht gelesen werden');
    const missing = await t.request('POST', '/v1/Workflow', {
      as: ADMIN,
      body: { name: 'AS2 ohne', communicationProtocol: 3 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.title).toBe('Ein AS2-Workflow braucht das Zertifikat des Partners.');

    // An HTTP profile switched to AS2 has no certificate to keep: refused the same way.
    const http = await t.request('POST', '/v1/Workflow', {
      as: ADMIN,
      body: { name: 'Erst HTTP', communicationProtocol: 4, baseUrl: 'http://127.0.0.1:9/' },
    });
    const switched = await t.request('PUT', `/v1/Workflow/${http.body.id}`, {
      as: ADMIN,
      body: { name: 'Erst HTTP', communicationProtocol: 3 },
    });
    expect(switched.status).toBe(400);
    expect(switched.body.title).toBe('Ein AS2-Workflow braucht das Zertifikat des Partners.');

    const own = await t.request('GET', '/v1/As2/Certificate', { as: ADMIN });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ as2Identifier: 'SHKPORTAL', mdnUrl: `${t.config.publicUrl}/inbound/as2/mdn` });
    expect(own.body.certificatePem).toContain('BEGIN CERTIFICATE');
  });

  it('warns staff 30 days before a partner certificate expires: listed for the workflow page, one mail per threshold', async () => {
    const soon = await certificates.certificate('BALD-ABGELAUFEN', 20);
    await createWorkflow(t, {
      name: 'Partner mit ablaufendem Zertifikat',
      communicationProtocol: Protocol.As2,
      partnerCertificate: soon.certificatePem,
    });
    const warnings = await t.request('GET', '/v1/As2/CertificateWarnings', { as: ADMIN });
    expect(warnings.status).toBe(200);
    expect(warnings.body).toHaveLength(1);
    expect(warnings.body[0]).toMatchObject({ kind: 'partner', workflowName: 'Partner mit ablaufendem Zertifikat' });
    expect(warnings.body[0].message).toMatch(
      /^AS2-Partnerzertifikat des Workflows „Partner mit ablaufendem Zertifikat“ läuft in (19|20) Tagen ab \(am \d\d\.\d\d\.\d{4}\)\.$/,
    );
    expect((await t.request('GET', '/v1/As2/CertificateWarnings', { as: 'verkauf@example.com' })).status).toBe(403);

    const identity = () => loadAs2Identity(t.config.dataDir, t.config.as2);
    const admins = (await t.pool.query(`SELECT count(*)::int AS n FROM users WHERE role = 3`)).rows[0].n;
    const mails = () =>
      t.pool.query(`SELECT to_address, subject, body_text FROM mail_outbox WHERE subject LIKE 'Zertifikat läuft ab:%'`);
    // The app checked at start (before this certificate existed); now the check finds it.
    expect(await mailCertificateWarnings(t.db, t.mail, identity)).toBe(admins);
    expect(await mailCertificateWarnings(t.db, t.mail, identity)).toBe(0);
    const first = await mails();
    expect(first.rows).toHaveLength(admins);
    expect(first.rows[0].subject).toContain('Partner mit ablaufendem Zertifikat');
    expect(first.rows[0].body_text).toContain(warnings.body[0].certificate.fingerprintSha256);
    // Seven days before expiry is the next threshold: one more mail each, then quiet again.
    const inFifteenDays = new Date(Date.now() + 15 * 86_400_000);
    expect(await mailCertificateWarnings(t.db, t.mail, identity, inFifteenDays)).toBe(admins);
    expect(await mailCertificateWarnings(t.db, t.mail, identity, inFifteenDays)).toBe(0);
    await eventually(async () => (await mails()).rows.length === 2 * admins);
  });

  it('warns about our own certificate too', async () => {
    const inFiveYears = new Date(Date.now() + (5 * 365 - 10) * 86_400_000);
    const own = (await t.request('GET', '/v1/As2/Certificate', { as: ADMIN })).body.certificate;
    const { certificateWarnings } = await import('../../src/modules/transmission/as2.service.ts');
    const warnings = await certificateWarnings(
      t.pool,
      () => loadAs2Identity(t.config.dataDir, t.config.as2),
      inFiveYears,
    );
    const mine = warnings.find((w) => w.kind === 'own')!;
    expect(mine.certificate.fingerprintSha256).toBe(own.fingerprintSha256);
    expect(mine.message).toMatch(/^Unser AS2-Zertifikat läuft in \d+ Tagen ab/);
  });
});
