/**
 * Deliveries against independent supplier systems on loopback (Debian's sshd + sftp-server and vsftpd, see
 * test/support/debian-peers.ts) and the rules that keep an order from being lost, sent twice or sent somewhere
 * it must not go: a taken file name, a changed host key, the mode of uploaded files, the channel of the first
 * attempt, internal targets and German reasons.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reader } from 'edifact';
import { SupplierOrderStatus, outboundMessages, transmissionMessages, workflowMessages } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { freePort } from '../support/free-port.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { connectAs2Supplier, startAs2Partner, trustPortal, type As2Peer } from '../support/as2-partner.ts';
import {
  createSshdPeer,
  createVsftpdPeer,
  sshdUnavailable,
  vsftpdUnavailable,
  type SshdPeer,
} from '../support/debian-peers.ts';
import {
  Format,
  Protocol,
  configureSupplier,
  createWorkflow,
  placeOrder,
  statusOf,
  waitForStatus,
} from './order-fixtures.ts';
import { OutboundPolicy } from '../../src/modules/transmission/outbound.ts';

const ADMIN = 'admin@example.com';
const AQUATHERM = '200003';
const NORDBAD = '200001';
const sshdSkip = sshdUnavailable();
const vsftpdSkip = vsftpdUnavailable();
if (sshdSkip) console.warn(`[delivery-peers] sshd-Tests übersprungen: ${sshdSkip}`);
if (vsftpdSkip) console.warn(`[delivery-peers] vsftpd-Tests übersprungen: ${vsftpdSkip}`);

let t: TestApp;
let smtp: SmtpPeer;
let as2: As2Peer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  as2 = await startAs2Partner();
  // Short backoff and enough attempts that a peer started a moment later is reached by a retry.
  process.env.TRANSMISSION_RETRY_BASE_MS = '100';
  process.env.TRANSMISSION_RETRY_MAX_MS = '300';
  process.env.TRANSMISSION_MAX_ATTEMPTS = '40';
  process.env.TRANSMISSION_POLL_MS = '50';
  // The loopback peers are internal addresses: the operator allowlist names 127.0.0.1 (and nothing else).
  t = await startTestApp({ env: { SMTP_URL: smtp.url, TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } });
  await insertTestOffers(t.pool);
  // The AS2 partner verifies our signatures with our certificate; we verify its MDNs with its certificate.
  trustPortal(as2, t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), as2?.close()]);
});

const transmissions = async (no: string) =>
  (await t.request('GET', `/v1/PlatformOperator/SupplierOrders/${no}/Transmissions`, { as: ADMIN })).body;
const firstFailure = (no: string) =>
  eventually(async () => (await transmissions(no)).log.find((a: any) => a.outcome === 'failed'), 20_000);
type Segment = { name: string; elements: string[][] };
const parseEdifact = (bytes: Buffer): Segment[] =>
  new Reader({ autoDetectEncoding: true }).parse(bytes.toString('latin1')) as Segment[];
const orderNumberIn = (bytes: Buffer) => parseEdifact(bytes).find((s) => s.name === 'BGM')!.elements[1][0];
const SUPPLIERS_FILE = Buffer.from("UNA:+.? 'UNB+UNOC:3+LIEFERANT:14+ALT:14+260101:0800+1'UNZ+0+1'", 'latin1');

describe('vsftpd', () => {
  it.skipIf(vsftpdSkip)(
    "an existing file with the order's name: the order's bytes still arrive under a unique name, 'Versendet' only after the upload",
    async () => {
      const ftp = await createVsftpdPeer();
      try {
        const workflow = await createWorkflow(t, {
          name: 'AquaTherm vsftpd',
          communicationProtocol: Protocol.Ftp,
          host: '127.0.0.1',
          port: ftp.port,
          userName: ftp.user,
          password: ftp.password,
          timeoutMs: 3000,
        });
        await configureSupplier(t, AQUATHERM, {
          protocol: Protocol.Ftp,
          formats: [Format.Edi_97A],
          folder: '/inbox',
          workflowId: workflow.id,
        });
        // vsftpd is not running yet: the first attempts fail (German reason), the order stays Created.
        const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
        expect((await firstFailure(so.number)).error).toBe(outboundMessages.connectionFailed(outboundMessages.refused));
        expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.Created);
        // Meanwhile a file of that name is on the server (an old order, the supplier's own system …).
        const inbox = path.join(ftp.root, 'inbox');
        const name = `ORDERS_${so.number}.edi`;
        fs.writeFileSync(path.join(inbox, name), SUPPLIERS_FILE);
        await ftp.start();

        await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
        const files = fs.readdirSync(inbox);
        expect(fs.readFileSync(path.join(inbox, name))).toEqual(SUPPLIERS_FILE); // not replaced
        const ours = files.filter((f) => f.startsWith(`ORDERS_${so.number}_`) && f.endsWith('.edi'));
        expect(ours).toHaveLength(1);
        expect(orderNumberIn(fs.readFileSync(path.join(inbox, ours[0])))).toBe(so.number);
        expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
        const sent = (await transmissions(so.number)).log.at(-1);
        expect(sent).toMatchObject({ outcome: 'sent', remoteNames: [`/inbox/${ours[0]}`] });
        expect(ours[0]).toBe(`ORDERS_${so.number}_${sent.messageId}.edi`);
      } finally {
        await ftp.close();
      }
    },
    60_000,
  );
});

describe('Debian OpenSSH (sshd + sftp-server)', () => {
  let sshd: SshdPeer;
  let workflowId: number;
  beforeAll(async () => {
    if (sshdSkip) return;
    sshd = await createSshdPeer();
    const workflow = await createWorkflow(t, {
      name: 'Nordbad OpenSSH',
      communicationProtocol: Protocol.Sftp,
      host: '127.0.0.1',
      port: sshd.port,
      userName: sshd.user,
      privateKey: sshd.privateKey,
      timeoutMs: 5000,
    });
    workflowId = workflow.id;
    await configureSupplier(t, NORDBAD, {
      protocol: Protocol.Sftp,
      formats: [Format.Edi_96A],
      folder: sshd.inbox,
      workflowId,
    });
  });
  afterAll(async () => {
    await sshd?.close();
  });

  it.skipIf(sshdSkip)(
    "an existing file with the order's name: the bytes arrive under a unique name, created 0640; the host key is pinned",
    async () => {
      const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 2 }])).supplierOrders;
      expect((await firstFailure(so.number)).error).toBe(outboundMessages.connectionFailed(outboundMessages.refused));
      const name = `ORDERS_${so.number}.edi`;
      fs.writeFileSync(path.join(sshd.inbox, name), SUPPLIERS_FILE);
      await sshd.start();

      await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
      expect(fs.readFileSync(path.join(sshd.inbox, name))).toEqual(SUPPLIERS_FILE);
      const ours = fs.readdirSync(sshd.inbox).filter((f) => f.startsWith(`ORDERS_${so.number}_`));
      expect(ours).toHaveLength(1);
      const file = path.join(sshd.inbox, ours[0]);
      expect(orderNumberIn(fs.readFileSync(file))).toBe(so.number);
      // Owner read/write, group read: not world-writable (0666) as ssh2's default would make it.
      expect(fs.statSync(file).mode & 0o777).toBe(0o640);
      expect(fs.readdirSync(sshd.inbox).filter((f) => f.endsWith('.part'))).toEqual([]);

      // Trust on first use: the key the delivery met is pinned (unconfirmed) and shown on the workflow.
      const list = await t.request('GET', '/v1/Workflow?communicationProtocol=2', { as: ADMIN });
      const mine = list.body.find((w: any) => w.id === workflowId);
      expect(mine.hostKey).toMatchObject({ fingerprint: sshd.fingerprint(), confirmedAt: null });

      // A second order with a free name goes under the order's own name.
      const [next] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 1 }])).supplierOrders;
      await waitForStatus(t, next.number, SupplierOrderStatus.Sent);
      const own = path.join(sshd.inbox, `ORDERS_${next.number}.edi`);
      expect(orderNumberIn(fs.readFileSync(own))).toBe(next.number);
      expect(fs.statSync(own).mode & 0o777).toBe(0o640);
    },
    60_000,
  );

  it.skipIf(sshdSkip)(
    "'Verbindung testen' shows the fingerprint, staff confirm it; a changed key fails the delivery naming both, staff accept the new one",
    async () => {
      const test = async () => (await t.request('POST', `/v1/Workflow/${workflowId}/Test`, { as: ADMIN })).body;
      const pinned = sshd.fingerprint();
      const first = await test();
      expect(first).toMatchObject({ ok: true, hostKey: { fingerprint: pinned, pinned, status: 'unconfirmed' } });
      const confirm = (fingerprint: string) =>
        t.request('PUT', `/v1/Workflow/${workflowId}/HostKey`, { as: ADMIN, body: { fingerprint } });
      const confirmed = await confirm(pinned);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.hostKey.confirmedAt).not.toBeNull();
      expect((await test()).hostKey.status).toBe('match');
      expect((await confirm('SHA256:kaputt')).status).toBe(400);

      // The server comes back with a new host key (reinstalled, or someone in between).
      await sshd.start({ newHostKey: true });
      const changed = sshd.fingerprint();
      expect(changed).not.toBe(pinned);
      const before = fs.readdirSync(sshd.inbox).length;
      const [so] = (await placeOrder(t, [{ offer: offers.nordbad, quantity: 3 }])).supplierOrders;
      await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
      const log = await transmissions(so.number);
      expect(log.attempts).toBe(1); // no retry can fix it
      expect(log.lastError).toBe(outboundMessages.hostKeyChanged(pinned, changed));
      expect(log.lastError).toContain(pinned);
      expect(log.lastError).toContain(changed);
      expect(fs.readdirSync(sshd.inbox)).toHaveLength(before); // nothing was written

      const shown = await test();
      expect(shown).toMatchObject({
        ok: false,
        message: workflowMessages.testFailed(workflowMessages.hostKeyChanged(pinned, changed)),
        hostKey: { fingerprint: changed, pinned, status: 'changed' },
      });
      expect((await confirm(changed)).body.hostKey.fingerprint).toBe(changed);
      const resend = await t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend`, { as: ADMIN });
      expect(resend.status).toBe(202);
      await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
      expect(orderNumberIn(fs.readFileSync(path.join(sshd.inbox, `ORDERS_${so.number}.edi`)))).toBe(so.number);
    },
    60_000,
  );
});

/** A switchable front of the AS2 peer: 503 while down, forwards to the peer while up. */
async function startSwitch(targetUrl: string) {
  const state = { up: false };
  const server = http.createServer((req, res) => {
    if (!state.up) {
      req.resume();
      res.writeHead(503).end('Wartung');
      return;
    }
    const target = new URL(targetUrl);
    const forward = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/as2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Mails to a supplier about an order (the buyer's own order mails go through the same SMTP peer). */
const supplierMails = (orderNumber: string) =>
  smtp.messages.filter(
    (m) => m.to.some((to) => to.endsWith('@aquatherm.example')) && m.raw.toString().includes(orderNumber),
  );

describe('the channel of the first attempt', () => {
  it('a retry keeps AS2 after staff switch the supplier to e-mail; new orders go by e-mail', async () => {
    const front = await startSwitch(as2.url);
    try {
      await connectAs2Supplier(t, as2, AQUATHERM, { name: 'Aquatherm AS2', url: front.url });
      const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 30 }])).supplierOrders;
      await firstFailure(so.number);
      // Staff switch the supplier to e-mail while the order is being retried.
      await configureSupplier(t, AQUATHERM, {
        protocol: Protocol.Email,
        formats: [Format.Pdf],
        email: 'bestellung@aquatherm.example',
      });
      const during = await transmissions(so.number);
      expect(during.channel).toMatchObject({ communicationProtocolId: Protocol.As2 });
      expect(during.channel.description).toContain('AS2');
      expect(during.currentChannel).toMatchObject({ communicationProtocolId: Protocol.Email });
      front.state.up = true;

      await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
      expect(as2.received.has(`<shk-${so.number}-2@SHKPORTAL>`)).toBe(true);
      expect(supplierMails(so.number)).toEqual([]);
      const log = await transmissions(so.number);
      expect(new Set(log.log.map((a: any) => a.communicationProtocolId))).toEqual(new Set([Protocol.As2]));

      const [next] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
      await waitForStatus(t, next.number, SupplierOrderStatus.Sent);
      expect(supplierMails(next.number).length > 0).toBe(true);
      expect((await transmissions(next.number)).channel.communicationProtocolId).toBe(Protocol.Email);
    } finally {
      await front.close();
    }
  });

  it("'Erneut senden' names the workflow it uses and keeps it; the current settings only when staff choose them", async () => {
    // 127.0.0.2 is loopback but not on the allowlist: refused at once, no retry.
    const workflow = await createWorkflow(t, {
      name: 'AquaTherm intern',
      communicationProtocol: Protocol.Http,
      baseUrl: 'http://127.0.0.2:8080/bestellungen',
    });
    await configureSupplier(t, AQUATHERM, { protocol: Protocol.Http, formats: [Format.Pdf], workflowId: workflow.id });
    const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 20 }])).supplierOrders;
    await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
    let log = await transmissions(so.number);
    expect(log.lastError).toBe(outboundMessages.internalTarget('127.0.0.2', '127.0.0.2', 'Loopback'));
    expect(log.channel.description).toBe('HTTP · Workflow „AquaTherm intern“ (Version 1)');

    await configureSupplier(t, AQUATHERM, {
      protocol: Protocol.Email,
      formats: [Format.Pdf],
      email: 'neu@aquatherm.example',
    });
    log = await transmissions(so.number);
    expect(log.currentChannel.description).toBe('E-Mail · an neu@aquatherm.example');
    const resend = (query = '') =>
      t.request('POST', `/v1/PlatformOperator/SupplierOrders/${so.number}/Resend${query}`, { as: ADMIN });
    expect((await resend()).status).toBe(202);
    // The second attempt has ended (not only begun: the order keeps its failed status while it runs).
    log = await eventually(async () => {
      const now = await transmissions(so.number);
      return now.state === 'failed' && now.log.length === 2 && now.log.every((a: any) => a.finishedAt) ? now : null;
    }, 20_000);
    expect(await statusOf(t, so.number)).toBe(SupplierOrderStatus.SendingFailed);
    expect(log.log.map((a: any) => a.communicationProtocolId)).toEqual([Protocol.Http, Protocol.Http]);

    // While a resend is still queued or running, another one queues nothing: a 409 that says so, not a silent 202.
    const soId = (await t.pool.query('SELECT id FROM supplier_orders WHERE supplier_order_number = $1', [so.number]))
      .rows[0].id;
    await t.pool.query(
      `UPDATE supplier_order_transmissions SET state = 'sending', locked_until = now() + interval '1 minute'
        WHERE supplier_order_id = $1`,
      [soId],
    );
    const running = await resend('?channel=current');
    expect(running.status).toBe(409);
    expect(running.body.title).toBe(transmissionMessages.resendRunning);
    await t.pool.query(
      `UPDATE supplier_order_transmissions SET state = 'failed', locked_until = NULL WHERE supplier_order_id = $1`,
      [soId],
    );

    expect((await resend('?channel=current')).status).toBe(202);
    await waitForStatus(t, so.number, SupplierOrderStatus.Sent);
    expect(supplierMails(so.number).map((m) => m.to[0])).toEqual(['neu@aquatherm.example']);
    expect((await transmissions(so.number)).channel.communicationProtocolId).toBe(Protocol.Email);
    expect(transmissionMessages.resendUses('E-Mail')).toContain('E-Mail');
  });
});

describe('internal targets and German reasons', () => {
  const tryWorkflow = async (body: Record<string, unknown>) => {
    const created = await t.request('POST', '/v1/Workflow', {
      as: ADMIN,
      body: { name: `Ziel ${Math.random().toString(36).slice(2)}`, ...body },
    });
    expect(created.status).toBe(201);
    return (await t.request('POST', `/v1/Workflow/${created.body.id}/Test`, { as: ADMIN })).body;
  };

  it("'Verbindung testen' refuses loopback, private and link-local addresses and the database's port", async () => {
    const loopback = await tryWorkflow({ communicationProtocol: Protocol.Ftp, host: '127.0.0.2', port: 21 });
    expect(loopback).toMatchObject({
      ok: false,
      message: workflowMessages.testFailed(outboundMessages.internalTarget('127.0.0.2', '127.0.0.2', 'Loopback')),
    });
    const privateNet = await tryWorkflow({ communicationProtocol: Protocol.Sftp, host: '10.1.2.3', port: 22 });
    expect(privateNet.message).toBe(
      workflowMessages.testFailed(outboundMessages.internalTarget('10.1.2.3', '10.1.2.3', 'privates Netz')),
    );
    const metadata = await tryWorkflow({
      communicationProtocol: Protocol.Api,
      baseUrl: 'http://169.254.169.254/latest',
    });
    expect(metadata.message).toContain('Link-Local');
    const ipv6 = await tryWorkflow({ communicationProtocol: Protocol.Http, baseUrl: 'http://[::1]:8080/x' });
    expect(ipv6.message).toContain('Loopback');
    // 127.0.0.1 is allowlisted, but never the database's port.
    const dbPort = Number(new URL(t.databaseUrl).port);
    const database = await tryWorkflow({ communicationProtocol: Protocol.Ftp, host: '127.0.0.1', port: dbPort });
    expect(database.message).toBe(workflowMessages.testFailed(outboundMessages.databasePort('127.0.0.1', dbPort)));
  });

  it('reports German reasons, never library messages; follows no redirects', async () => {
    const unknown = await tryWorkflow({
      communicationProtocol: Protocol.Sftp,
      host: 'lieferant-gibt-es-nicht.invalid',
      port: 22,
      userName: 'x',
      password: 'y',
    });
    expect(unknown.message).toBe('Verbindung fehlgeschlagen: Rechner nicht gefunden');
    const unknownFtp = await tryWorkflow({ communicationProtocol: Protocol.Ftp, host: 'ftp.gibt-es-nicht.invalid' });
    expect(unknownFtp.message).toBe('Verbindung fehlgeschlagen: Rechner nicht gefunden');
    const closed = await tryWorkflow({
      communicationProtocol: Protocol.Http,
      baseUrl: `http://127.0.0.1:${await freePort()}/x`,
    });
    expect(closed.message).toBe('Verbindung fehlgeschlagen: Verbindung abgelehnt (Port geschlossen)');

    // A server that redirects to the cloud metadata address: not followed, neither by the test nor by a delivery.
    const redirecting = http.createServer((req, res) => {
      req.resume();
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/orders`;
      const test = await tryWorkflow({ communicationProtocol: Protocol.Http, baseUrl: url });
      expect(test).toMatchObject({ ok: false });
      expect(test.message).toContain(outboundMessages.redirect(302, 'http://169.254.169.254/latest/meta-data'));
      const workflow = await createWorkflow(t, {
        name: 'Umleitung',
        communicationProtocol: Protocol.Http,
        baseUrl: url,
      });
      await configureSupplier(t, AQUATHERM, {
        protocol: Protocol.Http,
        formats: [Format.Pdf],
        workflowId: workflow.id,
      });
      const [so] = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 10 }])).supplierOrders;
      await waitForStatus(t, so.number, SupplierOrderStatus.SendingFailed);
      expect((await transmissions(so.number)).lastError).toBe(
        outboundMessages.redirect(302, 'http://169.254.169.254/latest/meta-data'),
      );
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('without an allowlist every loopback target is refused; entries may name a host, a range and a port', async () => {
    const none = new OutboundPolicy([], { host: '127.0.0.1', port: 5432 });
    await expect(none.resolve('127.0.0.1', 2222)).rejects.toThrow(
      outboundMessages.internalTarget('127.0.0.1', '127.0.0.1', 'Loopback'),
    );
    await expect(none.resolve('localhost', 2222)).rejects.toThrow(/Loopback/);
    await expect(none.resolve('::ffff:192.168.1.5', 21)).rejects.toThrow(/privates Netz/);
    await expect(none.resolve('8.8.8.8', 22)).resolves.toBe('8.8.8.8');

    const some = new OutboundPolicy(['10.20.0.0/16', 'edi.intern:2222', '127.0.0.1:5432'], {
      host: '127.0.0.1',
      port: 5432,
    });
    await expect(some.resolve('10.20.3.4', 22)).resolves.toBe('10.20.3.4');
    await expect(some.resolve('10.21.3.4', 22)).rejects.toThrow(/privates Netz/);
    await expect(some.resolve('127.0.0.1', 5432)).resolves.toBe('127.0.0.1'); // named with the port
    await expect(some.resolve('127.0.0.1', 22)).rejects.toThrow(/Loopback/);
    const byRange = new OutboundPolicy(['127.0.0.0/8'], { host: '127.0.0.1', port: 5432 });
    await expect(byRange.resolve('127.0.0.1', 5432)).rejects.toThrow(/Port der Datenbank/);
    // A name with several addresses connects to one the list allows.
    await expect(new OutboundPolicy(['127.0.0.1'], null).resolve('localhost', 2222)).resolves.toBe('127.0.0.1');
  });
});
