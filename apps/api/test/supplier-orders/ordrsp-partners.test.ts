import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierOrderStatus } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { insertTestOffers, offers } from '../support/cart-fixtures.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { directoryErrors } from '../support/edifact-directory.ts';
import { Format, Protocol, configureSupplier, placeOrder, waitForStatus } from '../transmission/order-fixtures.ts';
import { InboundOrdrspService } from '../../src/modules/supplier-orders/inbound.service.ts';
import { parseOrdrsp } from '../../src/modules/supplier-orders/ordrsp.ts';

/**
 * Order responses as EANCOM partners and UTF-8 systems send them: lines identified by GTIN only, files in
 * UNOW/UNOY, the RFC 1767 media types with a charset parameter.
 */

let t: TestApp;
let smtp: SmtpPeer;
const NORDBAD = '200001';
const GTIN_NB_1 = '4000000000017'; // TEST-NB-1 (Thermostatventil Testserie DN15)
const GTIN_OTHER = '4000000000024'; // a product that was not ordered
const auth = `Basic ${Buffer.from('nordbad-edi:geheim-123').toString('base64')}`;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  await insertTestOffers(t.pool);
  await configureSupplier(t, NORDBAD, { protocol: Protocol.Email, formats: [Format.Pdf], email: 'o@nordbad.example' });
  await t.pool.query('UPDATE suppliers SET in_com_protocol_id = $2 WHERE bp_number = $1', [NORDBAD, Protocol.Http]);
  await new InboundOrdrspService(t).setCredentials(NORDBAD, 'nordbad-edi', 'geheim-123');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function ordrsp(orderNumber: string, lines: string[], syntax = 'UNOC:3') {
  const body = [
    `UNH+1+ORDRSP:D:96A:UN:EAN005'`,
    "BGM+231+AB-778+4'",
    "DTM+137:20260301:102'",
    `RFF+ON:${orderNumber}'`,
    "NAD+SU+4012345000009::9'",
    ...lines,
    "UNS+S'",
  ];
  return [
    "UNA:+.? '",
    `UNB+${syntax}+4012345000009:14+4399902421007:14+260301:1200+77'`,
    ...body,
    `UNT+${body.length + 1}+1'`,
    "UNZ+1+77'",
  ].join('\n');
}

/** Nordbad's order of 3 × TEST-NB-1 and 1 × TEST-NB-2, sent (awaiting confirmation). */
async function sentOrder() {
  const order = await placeOrder(t, [
    { offer: offers.nordbad, quantity: 3 },
    { offer: offers.nordbadExpensive, quantity: 1 },
  ]);
  const so = order.supplierOrders[0];
  await t.pool.query('UPDATE supplier_orders SET status_id = 2, sent_at = now() WHERE id = $1', [so.id]);
  return so.number;
}

const post = (body: string | Buffer, contentType = 'application/EDIFACT') =>
  fetch(`${t.baseUrl}/inbound/ordrsp`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': contentType },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

async function confirmationOf(no: string) {
  const details = await t.request('GET', `/v1/SupplierOrders/${no}/Details`, { as: 'verkauf@example.com' });
  expect(details.status).toBe(200);
  return details.body.itemsConfirmation;
}

describe('ORDRSP from EANCOM partners', () => {
  it('the fixtures are valid ORDRSP messages of D.96A (checked with the second parser)', () => {
    expect(directoryErrors(ordrsp('LB-1', [`LIN+1+3+${GTIN_NB_1}:EN'`, "QTY+21:2:PCE'"]))).toEqual([]);
  });

  it('a line identified only by its GTIN (no PIA) is the ordered article: a change, not a replacement', async () => {
    const no = await sentOrder();
    const res = await post(ordrsp(no, [`LIN+1+3+${GTIN_NB_1}:EN'`, "QTY+21:2:PCE'"]));
    expect(res.status).toBe(200);
    await waitForStatus(t, no, SupplierOrderStatus.ConfirmedWithChanges, 2000);
    const confirmation = await confirmationOf(no);
    expect(confirmation.orderedAndReplaced).toHaveLength(0);
    expect(confirmation.orderedAndChanged).toEqual([
      expect.objectContaining({
        ordered: expect.objectContaining({ quantity: 3 }),
        confirmed: expect.objectContaining({ quantity: 2 }),
      }),
    ]);
  });

  it('a GTIN of another article is a replacement', async () => {
    const no = await sentOrder();
    const res = await post(ordrsp(no, [`LIN+1+3+${GTIN_OTHER}:EN'`, "IMD+F++:::Heizkörperverschraubung Test'"]));
    expect(res.status).toBe(200);
    const confirmation = await confirmationOf(no);
    expect(confirmation.orderedAndReplaced).toHaveLength(1);
  });

  it('reads a GTIN line with the supplier article in PIA as the ordered article as well', () => {
    const parsed = parseOrdrsp(ordrsp('LB-1', [`LIN+1+3+${GTIN_NB_1}:EN'`, "PIA+1+TEST-NB-1:SA'", "QTY+21:2:PCE'"]));
    expect(parsed.body.lines[0].replacement).toEqual({
      articleNumber: 'TEST-NB-1',
      gtin: GTIN_NB_1,
      name: 'TEST-NB-1',
    });
  });
});

describe('ORDRSP character sets and media types', () => {
  it('a UTF-8 file (UNOW) posted as application/EDIFACT with a charset is decoded by its UNB syntax identifier', async () => {
    const no = await sentOrder();
    const text = ordrsp(
      no,
      ["LIN+3+1+ZUB-9:SA'", "IMD+F++:::Zubehörset weiß – Ø 15 mm'", "QTY+21:1:PCE'", "PRI+AAA:10.5'"],
      'UNOW:4',
    );
    const res = await post(Buffer.from(text, 'utf8'), 'application/EDIFACT; charset=UTF-8');
    expect(res.status).toBe(200);
    const { rows } = await t.pool.query(
      `SELECT l.name FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 AND l.article_number = 'ZUB-9'`,
      [no],
    );
    expect(rows).toEqual([{ name: 'Zubehörset weiß – Ø 15 mm' }]);
  });

  it('UNOY (UTF-8 in syntax version 4) with ß, as application/EDI-consent', async () => {
    const no = await sentOrder();
    const text = ordrsp(no, ["LIN+3+1+ZUB-10:SA'", "IMD+F++:::Rohrschelle groß'", "QTY+21:2:PCE'"], 'UNOY:4');
    const res = await post(Buffer.from(text, 'utf8'), 'application/EDI-consent');
    expect(res.status).toBe(200);
    const names = await t.pool.query(
      `SELECT l.name FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 AND l.article_number = 'ZUB-10'`,
      [no],
    );
    expect(names.rows).toEqual([{ name: 'Rohrschelle groß' }]);
  });

  it('Latin-1 (UNOC) stays Latin-1, also under a lower-case media type with parameters', async () => {
    const no = await sentOrder();
    const text = ordrsp(no, ["LIN+3+1+ZUB-11:SA'", "IMD+F++:::Überwurfmutter weiß'", "QTY+21:1:PCE'"]);
    const res = await post(Buffer.from(text, 'latin1'), 'application/edifact;charset=iso-8859-1');
    expect(res.status).toBe(200);
    const names = await t.pool.query(
      `SELECT l.name FROM order_lines l JOIN supplier_orders so ON so.id = l.supplier_order_id
        WHERE so.supplier_order_number = $1 AND l.article_number = 'ZUB-11'`,
      [no],
    );
    expect(names.rows).toEqual([{ name: 'Überwurfmutter weiß' }]);
  });

  it('the other ISO 8859 parts by their identifier (UNOD is ISO 8859-2)', () => {
    const text = ordrsp('LB-1', ["LIN+3+1+ZUB-12:SA'", "IMD+F++:::Łącznik Żółty'", "QTY+21:1:PCE'"], 'UNOD:3');
    const parsed = parseOrdrsp(iconv.encode(text, 'iso-8859-2'));
    expect(parsed.body.addedLines[0].name).toBe('Łącznik Żółty');
  });

  it('a UTF-8 file that is not valid UTF-8 is refused with a German reason', async () => {
    const no = await sentOrder();
    const text = Buffer.from(ordrsp(no, ["LIN+1+5+TEST-NB-1:SA'"], 'UNOW:4'), 'latin1');
    const broken = Buffer.concat([text.subarray(0, 60), Buffer.from([0xc3, 0x28]), text.subarray(60)]);
    const res = await post(broken);
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toBe('Die Datei ist nicht in UNOW (UTF-8) kodiert.');
  });
});

describe('stored reasons', () => {
  it('never contain control characters, whatever the file carried', async () => {
    const withControl = ordrsp('LB-4711\u0001X', ["LIN+1+5+X:SA'"]);
    const first = await post(Buffer.from(withControl, 'latin1'));
    expect(first.status).toBe(422);
    const unicode = ordrsp('LB-4711\u2028\u200bX', ["LIN+1+5+X:SA'"], 'UNOW:4');
    const second = await post(Buffer.from(unicode, 'utf8'));
    expect(second.status).toBe(422);
    const { rows } = await t.pool.query<{ reason: string }>(
      "SELECT reason FROM inbound_order_responses WHERE outcome = 'rejected' ORDER BY id DESC LIMIT 2",
    );
    expect(rows).toHaveLength(2);
    for (const { reason } of rows) {
      expect(reason).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
      expect(reason).not.toMatch(/Invalid character/);
    }
    expect(rows.map((r) => r.reason)).toContainEqual(
      expect.stringMatching(/^Die Datei ist keine gültige EDIFACT-Nachricht: Ungültiges Zeichen an Position \d+$/),
    );
  });
});
