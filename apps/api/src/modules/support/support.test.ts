import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/** POST /v1/SupportRequests/PartnerDataChange: stored and mailed (moved from test/foundation.test.ts). */
const SUPPORT_MAILBOX = 'servicedesk@shk-test.example';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SUPPORT_MAILBOX } });
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

function parseEml(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = decodeHeader(line.slice(i + 1).trim());
  }
  let body = rest.join('\n\n');
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, body };
}

describe('partner data change request', () => {
  it('is stored and mailed to the support mailbox as an .eml file under DATA_DIR/mail', async () => {
    const body = {
      message: 'Unsere Telefonnummer hat sich geändert: 0221 555-0',
      email: 'buchhaltung@sanitaer-mueller.example',
      phoneNumber: '+49 221 555-0',
    };
    const res = await t.request('POST', '/v1/SupportRequests/PartnerDataChange', { as: BUYER, body });
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query('SELECT * FROM support_requests WHERE id = $1', [res.body.id]);
    expect(rows[0]).toMatchObject({
      kind: 'PartnerDataChange',
      bp_number: '100001',
      message: body.message,
      email: body.email,
      phone_number: body.phoneNumber,
    });

    const mailDir = path.join(t.config.dataDir, 'mail');
    const file = await eventually(async () => {
      const outbox = (await t.pool.query('SELECT status, stored_as FROM mail_outbox WHERE id = $1', [rows[0].mail_id]))
        .rows[0];
      return outbox?.status === 'sent' && outbox.stored_as;
    });
    expect(path.dirname(file)).toBe(mailDir);
    const mail = parseEml(fs.readFileSync(file, 'utf8'));
    expect(mail.headers.to).toBe(SUPPORT_MAILBOX);
    // Reply-To is the signed-in user's profile address; the typed-in one is in the text.
    expect(mail.headers['reply-to']).toBe('einkauf@example.com');
    expect(mail.body).toContain(body.email);
    expect(mail.headers.from).toContain('noreply@shk-bestellportal.example');
    expect(mail.headers.subject).toBe('Änderungsantrag Firmendaten: 100001 Sanitär Müller GmbH');
    expect(mail.body).toContain(body.message);
    expect(mail.body).toContain('Erika Einkauf <einkauf@example.com> (Einkäufer)');
    expect(mail.body).toContain('Telefon +49 221 555-0');
  });

  it('requires message and a valid e-mail, listing every field', async () => {
    const res = await t.request('POST', '/v1/SupportRequests/PartnerDataChange', {
      as: BUYER,
      body: { message: '  ', email: 'kein-mail' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['body.email', 'body.message']);
  });
});
