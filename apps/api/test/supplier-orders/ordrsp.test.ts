import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import fs from 'node:fs';
import path from 'node:path';
import { startFtpPeer, startSftpPeer, startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import {
  Format,
  Protocol,
  configureSupplier,
  createWorkflow,
  placeOrder,
  statusOf,
  waitForStatus,
} from '../transmission/order-fixtures.ts';
import { OrdrspPickup } from '../../src/modules/supplier-orders/ordrsp-pickup.ts';
import { InboundOrdrspService } from '../../src/modules/supplier-orders/inbound.service.ts';
import { parseOrdrsp } from '../../src/modules/supplier-orders/ordrsp.ts';

let t: TestApp;
let smtp: SmtpPeer;
const auth = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } });
  await insertTestOffers(t.pool);
  for (const bp of ['200001', '200003'])
    await configureSupplier(t, bp, { protocol: Protocol.Email, formats: [Format.Pdf], email: `o@${bp}.example` });
  // Nordbad answers electronically.
  await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', ['200001', Protocol.Http]);
  await new InboundOrdrspService(t).setCredentials('200001', 'nordbad-edi', 'geheim-123');
  await new InboundOrdrspService(t).setCredentials('200003', 'aqua-edi', 'aqua-456');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function ordrsp(orderNumber: string, lines: string[], version = '96A') {
  return [
    "UNA:+.? '",
    "UNB+UNOC:3+4012345000009:14+4099999000001:14+250101:1200+42'",
    `UNH+1+ORDRSP:D:${version}:UN'`,
    "BGM+231+AB-778+4'",
    "DTM+137:20250101:102'",
    `RFF+ON:${orderNumber}'`,
    "NAD+SU+4012345000009::9'",
    ...lines,
    "UNS+S'",
    `UNT+${7 + lines.length}+1'`,
    "UNZ+1+42'",
  ].join('\n');
}

async function sentNordbadOrder() {
  const order = await placeOrder(t, [
    { offer: offers.nordbad, quantity: 3 },
    { offer: offers.nordbadExpensive, quantity: 1 },
  ]);
  const so = order.supplierOrders[0];
  await t.pool.query('UPDATE supplier_orders SET status_id = 2, sent_at = now() WHERE id = $1', [so.id]);
  return so.number;
}

const post = (body: string, authorization = auth('nordbad-edi', 'geheim-123')) =>
  fetch(`${t.baseUrl}/inbound/ordrsp`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/edifact', 'x-file-name': 'ordrsp.edi' },
    body,
  });

describe('ORDRSP parser', () => {
  it('maps LIN action codes to changed, removed and added lines (D.96A and D.97A)', () => {
    for (const version of ['96A', '97A']) {
      const parsed = parseOrdrsp(
        ordrsp(
          'LB-1',
          [
            "LIN+1+3+TM-100:SA'",
            "QTY+21:2:PCE'",
            "DTM+69:20300504:102'",
            "LIN+2+7+TM-200:SA'",
            "LIN+3+1+ZUB-9:SA'",
            "IMD+F++:::Zubehörset'",
            "QTY+21:1:PCE'",
            "PRI+AAA:10.5'",
          ],
          version,
        ),
      );
      expect(parsed.orderNumber).toBe('LB-1');
      expect(parsed.statusId).toBe(SupplierOrderStatus.ConfirmedWithChanges);
      expect(parsed.body.lines).toEqual([
        expect.objectContaining({ lineNo: 1, quantity: 2, deliveryDate: '2030-05-04' }),
        { lineNo: 2, removed: true },
      ]);
      expect(parsed.body.addedLines).toEqual([
        expect.objectContaining({ articleNumber: 'ZUB-9', name: 'Zubehörset', quantity: 1, unitPrice: 10.5 }),
      ]);
    }
    expect(parseOrdrsp(ordrsp('LB-2', ["LIN+1+5+TM-100:SA'"])).statusId).toBe(SupplierOrderStatus.Confirmed);
  });
});

describe('POST /inbound/ordrsp', () => {
  it('applies a good ORDRSP: changed quantity, ConfirmedWithChanges, logged as applied', async () => {
    const no = await sentNordbadOrder();
    const lines = (
      await t.pool.query(
        `SELECT l.line_no, l.article_number FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 ORDER BY l.line_no`,
        [no],
      )
    ).rows;
    const res = await post(
      ordrsp(no, [`LIN+1+3+${lines[0].article_number}:SA'`, "QTY+21:2:PCE'", `LIN+2+5+${lines[1].article_number}:SA'`]),
    );
    expect(res.status).toBe(200);
    await waitForStatus(t, no, SupplierOrderStatus.ConfirmedWithChanges, 1000);
    const details = await t.request('GET', `/v1/SupplierOrders/${no}/Details`, { as: 'verkauf@example.com' });
    expect(details.body.itemsConfirmation.orderedAndChanged).toEqual([
      expect.objectContaining({
        ordered: expect.objectContaining({ quantity: 3 }),
        confirmed: expect.objectContaining({ quantity: 2 }),
      }),
    ]);
    expect(details.body.itemsConfirmation.orderedAndConfirmed).toHaveLength(1);
    expect(details.body.itemsConfirmation.orderedAndReplaced).toHaveLength(0);
    const log = await t.pool.query(
      'SELECT outcome, file_name FROM inbound_order_responses WHERE supplier_order_number = $1',
      [no],
    );
    expect(log.rows).toEqual([{ outcome: 'applied', file_name: 'ordrsp.edi' }]);
  });

  it('rejects unknown orders, another supplier’s order, malformed files and bad credentials; nothing applied, kept for staff', async () => {
    const no = await sentNordbadOrder();
    const unknown = await post(ordrsp('LB-999999', ["LIN+1+5+X:SA'"]));
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).detail).toBe('Unbekannte Bestellnummer LB-999999.');

    // AquaTherm's credentials cannot confirm Nordbad's order.
    const foreign = await post(ordrsp(no, ["LIN+1+5+X:SA'"]), auth('aqua-edi', 'aqua-456'));
    expect(foreign.status).toBe(422);

    const malformed = await post("UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'");
    expect(malformed.status).toBe(422);
    const garbage = await post('das ist kein EDIFACT');
    expect(garbage.status).toBe(422);
    // A line the order does not have: the whole file is rejected, the valid first line is not applied.
    const half = await post(ordrsp(no, ["LIN+1+3+X:SA'", "QTY+21:1:PCE'", "LIN+9+3+Y:SA'", "QTY+21:1:PCE'"]));
    expect(half.status).toBe(422);
    expect((await half.json()).detail).toBe('Position 9 gehört nicht zu dieser Bestellung.');
    const applied = await t.pool.query(
      `SELECT count(*)::int AS n FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 AND l.confirmation_kind IS NOT NULL`,
      [no],
    );
    expect(applied.rows[0].n).toBe(0);
    expect(
      (await t.pool.query('SELECT status_id FROM supplier_orders WHERE supplier_order_number = $1', [no])).rows[0]
        .status_id,
    ).toBe(2);

    expect((await post(ordrsp(no, []), auth('nordbad-edi', 'falsch'))).status).toBe(401);
    expect((await post(ordrsp(no, []), '')).status).toBe(401);

    const kept = await t.pool.query(
      "SELECT reason FROM inbound_order_responses WHERE outcome = 'rejected' ORDER BY id",
    );
    expect(kept.rows.length).toBeGreaterThanOrEqual(5);
    expect(kept.rows.every((r) => r.reason)).toBe(true);
  });

  it('staff list the rejected files with their reason and download them; other roles cannot', async () => {
    const body = ordrsp('LB-888888', ["LIN+1+5+X:SA'"]);
    expect((await post(body)).status).toBe(422);
    const list = await t.request('GET', '/v1/PlatformOperator/InboundOrderResponses', { as: 'support@example.com' });
    expect(list.status).toBe(200);
    expect(list.body.items.every((i: any) => i.outcome === 'rejected')).toBe(true);
    const row = list.body.items.find((i: any) => i.supplierOrderNumber === 'LB-888888');
    expect(row).toMatchObject({
      supplierBpNumber: '200001',
      supplierName: expect.any(String),
      source: 'http',
      fileName: 'ordrsp.edi',
      outcome: 'rejected',
      reason: 'Unbekannte Bestellnummer LB-888888.',
      size: Buffer.byteLength(body),
    });
    // Newest first.
    expect(list.body.items[0].id).toBe(row.id);
    const applied = await t.request('GET', '/v1/PlatformOperator/InboundOrderResponses?Outcome=applied', {
      as: 'admin@example.com',
    });
    expect(applied.body.items.every((i: any) => i.outcome === 'applied')).toBe(true);
    const other = await t.request('GET', '/v1/PlatformOperator/InboundOrderResponses?SupplierId=200003', {
      as: 'betrieb@example.com',
    });
    expect(other.body.items.some((i: any) => i.id === row.id)).toBe(false);

    const file = await t.request('GET', `/v1/PlatformOperator/InboundOrderResponses/${row.id}/Content`, {
      as: 'admin@example.com',
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('ordrsp.edi');
    expect(file.text).toBe(body);
    expect(
      (
        await t.request('GET', '/v1/PlatformOperator/InboundOrderResponses/999999999/Content', {
          as: 'admin@example.com',
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('GET', '/v1/PlatformOperator/InboundOrderResponses', { as: 'verkauf@example.com' })).status,
    ).toBe(403);
  });

  it('administrators set a supplier’s inbound credentials through the API; the password is never returned', async () => {
    const put = (bp: string, body: unknown, as = 'admin@example.com') =>
      t.request('PUT', `/v1/Suppliers/${bp}/InboundCredentials`, { as, body });
    const set = await put('200003', { username: 'aquatherm-ordrsp', password: 'ein-langes-passwort' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      supplierBpNumber: '200003',
      username: 'aquatherm-ordrsp',
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(set.body)).not.toContain('ein-langes-passwort');
    const read = await t.request('GET', '/v1/Suppliers/200003/InboundCredentials', { as: 'support@example.com' });
    expect(read.body.username).toBe('aquatherm-ordrsp');
    const stored = await t.pool.query(
      'SELECT secret_hash FROM supplier_inbound_credentials WHERE supplier_bp_number = $1',
      ['200003'],
    );
    expect(stored.rows[0].secret_hash).toMatch(/^scrypt\$/);

    // The new credentials authenticate (the unknown order is a 422, not a 401); the old ones no longer do.
    expect((await post(ordrsp('LB-777777', []), auth('aquatherm-ordrsp', 'ein-langes-passwort'))).status).toBe(422);
    expect((await post(ordrsp('LB-777777', []), auth('aqua-edi', 'aqua-456'))).status).toBe(401);

    const taken = await put('200003', { username: 'nordbad-edi', password: 'ein-langes-passwort' });
    expect(taken.status).toBe(409);
    expect(taken.body.title).toBe('Dieser Benutzername wird bereits für einen anderen Lieferanten verwendet.');
    expect((await put('299999', { username: 'niemand-edi', password: 'ein-langes-passwort' })).status).toBe(404);
    const short = await put('200003', { username: 'aquatherm-ordrsp', password: 'kurz' });
    expect(short.status).toBe(400);
    expect(short.body.errors[0].field).toBe('body.password');
    expect((await put('200003', { username: 'x y', password: 'ein-langes-passwort' })).status).toBe(400);
    expect(
      (await put('200003', { username: 'support-edi', password: 'ein-langes-passwort' }, 'support@example.com')).status,
    ).toBe(403);
  });

  it('answers a NUL byte in the credentials or the file with a 400 problem, never a 500', async () => {
    const no = await sentNordbadOrder();
    const expectNul = async (res: Response, what: string) => {
      const text = await res.text();
      expect(res.status, `${what}: ${text.slice(0, 200)}`).toBe(400);
      expect(res.headers.get('content-type'), what).toContain('application/problem+json');
      expect(JSON.parse(text).title, what).toBe('Die Anfrage enthält unzulässige Zeichen.');
    };
    await expectNul(await post(ordrsp(no, []), auth('nordbad\u0000-edi', 'geheim-123')), 'user');
    await expectNul(await post(ordrsp(no, []), auth('nordbad-edi', 'geheim\u0000-123')), 'secret');
    await expectNul(await post(ordrsp(`${no}\u0000`, ["LIN+1+5+X:SA'"])), 'order number');
    await expectNul(await post(ordrsp(no, ["LIN+1+3+X:SA'", "IMD+F++:::Zubeh\u0000ör'"])), 'line text');
    // A file name with path parts is stored cleaned.
    const res = await fetch(`${t.baseUrl}/inbound/ordrsp`, {
      method: 'POST',
      headers: {
        authorization: auth('nordbad-edi', 'geheim-123'),
        'content-type': 'application/edifact',
        'x-file-name': '../../etc/ordrsp.edi',
      },
      body: ordrsp('LB-999998', ["LIN+1+5+X:SA'"]),
    });
    expect(res.status).toBe(422);
    const log = await t.pool.query(
      "SELECT file_name FROM inbound_order_responses WHERE reason = 'Unbekannte Bestellnummer LB-999998.'",
    );
    expect(log.rows).toEqual([{ file_name: 'ordrsp.edi' }]);
  });
});

describe('SFTP/FTP pick-up', () => {
  it('picks up ORDRSP files from the supplier’s SFTP and FTP servers, moves them to done/, never applies one twice', async () => {
    const sftp = await startSftpPeer(['/ordrsp']);
    const ftp = await startFtpPeer(['ordrsp']);
    try {
      // Nordbad answers over SFTP, AquaTherm over FTP, each on the server of the workflow its settings name.
      const sftpFlow = await createWorkflow(t, {
        name: 'Nordbad SFTP Abholung',
        communicationProtocol: Protocol.Sftp,
        host: '127.0.0.1',
        port: sftp.port,
        userName: sftp.user,
        password: sftp.password,
      });
      const ftpFlow = await createWorkflow(t, {
        name: 'AquaTherm FTP Abholung',
        communicationProtocol: Protocol.Ftp,
        host: '127.0.0.1',
        port: ftp.port,
        userName: ftp.user,
        password: ftp.password,
      });
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2, workflow_id = $3 WHERE bp_number = $1', [
        '200001',
        Protocol.Sftp,
        sftpFlow.id,
      ]);
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2, workflow_id = $3 WHERE bp_number = $1', [
        '200003',
        Protocol.Ftp,
        ftpFlow.id,
      ]);
      const nordbad = await sentNordbadOrder();
      const aquaOrder = (await placeOrder(t, [{ offer: offers.aquatherm, quantity: 20 }])).supplierOrders[0];
      await t.pool.query('UPDATE supplier_orders SET status_id = 2, sent_at = now() WHERE id = $1', [aquaOrder.id]);
      const articles = async (no: string) =>
        (
          await t.pool.query(
            `SELECT l.article_number FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
              WHERE so.supplier_order_number = $1 ORDER BY l.line_no`,
            [no],
          )
        ).rows.map((r) => r.article_number as string);
      const [a1, a2] = await articles(nordbad);
      const [b1] = await articles(aquaOrder.number);
      const nordbadFile = Buffer.from(
        ordrsp(nordbad, [`LIN+1+3+${a1}:SA'`, "QTY+21:2:PCE'", `LIN+2+5+${a2}:SA'`]),
        'latin1',
      );
      sftp.files.set('/ordrsp/AB-1001.edi', nordbadFile);
      sftp.files.set('/ordrsp/kaputt.edi', Buffer.from('das ist kein EDIFACT'));
      sftp.files.set('/ordrsp/.AB-1002.edi.part', Buffer.from('halb geschrieben'));
      fs.writeFileSync(
        path.join(ftp.root, 'ordrsp', 'AB-2001.edi'),
        ordrsp(aquaOrder.number, [`LIN+1+5+${b1}:SA'`], '97A'),
      );

      const pickup = new OrdrspPickup(t, { folder: '/ordrsp', everyMs: 60_000 }, { info: () => {}, warn: () => {} });
      expect(await pickup.runOnce()).toEqual({ applied: 2, rejected: 1, skipped: 0, failedSuppliers: 0 });
      expect(await statusOf(t, nordbad)).toBe(SupplierOrderStatus.ConfirmedWithChanges);
      expect(await statusOf(t, aquaOrder.number)).toBe(SupplierOrderStatus.Confirmed);
      // Processed files (applied and rejected) are in done/; a temporary upload is left alone.
      expect([...sftp.files.keys()].sort()).toEqual([
        '/ordrsp/.AB-1002.edi.part',
        '/ordrsp/done/AB-1001.edi',
        '/ordrsp/done/kaputt.edi',
      ]);
      expect(fs.readdirSync(path.join(ftp.root, 'ordrsp'))).toEqual(['done']);
      expect(fs.readdirSync(path.join(ftp.root, 'ordrsp', 'done'))).toEqual(['AB-2001.edi']);
      const rows = await t.pool.query(
        `SELECT source, file_name, outcome, reason FROM inbound_order_responses
          WHERE source IN ('sftp', 'ftp') ORDER BY file_name`,
      );
      expect(rows.rows).toEqual([
        { source: 'sftp', file_name: 'AB-1001.edi', outcome: 'applied', reason: null },
        { source: 'ftp', file_name: 'AB-2001.edi', outcome: 'applied', reason: null },
        { source: 'sftp', file_name: 'kaputt.edi', outcome: 'rejected', reason: expect.any(String) },
      ]);

      // A crash after receiving and before moving leaves the file in the inbox: the next pass only moves it.
      sftp.files.set('/ordrsp/AB-1001.edi', nordbadFile);
      // While another process picks up Nordbad's files (it holds the supplier's lock, with the key older nodes take),
      // this one leaves them alone.
      const otherProcess = await t.pool.connect();
      try {
        await otherProcess.query('SELECT pg_advisory_lock(7305, 200001)');
        expect(await pickup.runOnce()).toEqual({ applied: 0, rejected: 0, skipped: 0, failedSuppliers: 0 });
        expect(sftp.files.has('/ordrsp/AB-1001.edi')).toBe(true);
      } finally {
        await otherProcess.query('SELECT pg_advisory_unlock(7305, 200001)');
        otherProcess.release();
      }
      expect(await pickup.runOnce()).toEqual({ applied: 0, rejected: 0, skipped: 1, failedSuppliers: 0 });
      expect(
        (await t.pool.query("SELECT count(*)::int AS n FROM inbound_order_responses WHERE file_name = 'AB-1001.edi'"))
          .rows[0].n,
      ).toBe(1);
      expect([...sftp.files.keys()].filter((k) => k.startsWith('/ordrsp/done/AB-1001.edi'))).toHaveLength(2);
      expect(await pickup.runOnce()).toEqual({ applied: 0, rejected: 0, skipped: 0, failedSuppliers: 0 });

      // The pick-up reaches the servers as deliveries do: its first visit pinned the SFTP host key, and a server
      // that shows another key is not read (nothing is picked up, the file stays).
      const pinned = await t.pool.query(
        `SELECT k.fingerprint FROM workflow_host_keys k JOIN suppliers s ON s.workflow_id = k.workflow_id
          WHERE s.bp_number = '200001'`,
      );
      expect(pinned.rows).toHaveLength(1);
      await t.pool.query(
        `UPDATE workflow_host_keys k SET fingerprint = 'SHA256:ein-anderer-schluessel' FROM suppliers s
          WHERE s.workflow_id = k.workflow_id AND s.bp_number = '200001'`,
      );
      sftp.files.set('/ordrsp/AB-1003.edi', nordbadFile);
      expect(await pickup.runOnce()).toEqual({ applied: 0, rejected: 0, skipped: 0, failedSuppliers: 1 });
      expect(sftp.files.has('/ordrsp/AB-1003.edi')).toBe(true);
      // Internal addresses only when the operator allows them: without the allowlist neither server is contacted.
      const strict = new OrdrspPickup(
        { ...t, config: { ...t.config, transmissionAllowedHosts: [] } },
        { folder: '/ordrsp', everyMs: 60_000 },
        { info: () => {}, warn: () => {} },
      );
      expect(await strict.runOnce()).toEqual({ applied: 0, rejected: 0, skipped: 0, failedSuppliers: 2 });
    } finally {
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2, workflow_id = NULL WHERE bp_number = $1', [
        '200001',
        Protocol.Http,
      ]);
      await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2, workflow_id = NULL WHERE bp_number = $1', [
        '200003',
        Protocol.Email,
      ]);
      await Promise.all([sftp.close(), ftp.close()]);
    }
  }, 120_000);
});
