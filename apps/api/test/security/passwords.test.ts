import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordRules, passwordTexts, PORTAL_FONT_FAMILY } from '@shk/contracts';
import { eventually, startTestApp, type TestApp } from '../support/test-app.ts';
import { loginWithCodeFlow } from '../support/oidc-login.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/transmission-peers.ts';
import { hashPassword } from '../../src/modules/identity/password.ts';

/**
 * Passwords of the embedded provider (docs/security.md, "Passwords"): "Passwort vergessen?" with one-time links,
 * "Passwort ändern" on the profile, staff invitations, the strength rules, and what a new password ends. Mails go
 * through the outbox to a real SMTP peer; sign-ins run the real OIDC code flow. The proxy is trusted on loopback, so
 * X-Forwarded-For sets the client address of a request.
 */
let t: TestApp;
let smtp: SmtpPeer;
let db: pg.Pool;
beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' } });
  db = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
  await t?.close();
  await smtp?.close();
});

const STRONG = 'Heizkessel tropft seit Dienstag';
const sql = async <T = any>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[];

/** A fresh buyer of partner 100001 with the password 'demo' (the demo users stay untouched). */
async function newUser(prefix: string): Promise<{ id: string; email: string }> {
  const id = randomUUID();
  const email = `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
  await sql(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
     VALUES ($1, $2, 'Petra', 'Probe', 1, $3, '100001')`,
    [id, email, await hashPassword('demo')],
  );
  await sql("INSERT INTO user_business_partners (user_id, bp_number) VALUES ($1, '100001')", [id]);
  return { id, email };
}

/** The decoded text of a single-part mail (nodemailer: quoted-printable or base64) and its decoded subject. */
function decodeMail(raw: Buffer) {
  const source = raw.toString('latin1');
  const split = source.indexOf('\r\n\r\n');
  const headers = source.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = source.slice(split + 4);
  const text = /content-transfer-encoding: base64/i.test(headers)
    ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
    : Buffer.from(
        body
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
  const rawSubject = /^Subject: (.*)$/im.exec(headers)![1];
  const subject = rawSubject.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
  return { subject, text };
}

/** The mails to one address with a subject, in order of arrival. */
const mailsTo = (to: string, subject: string) =>
  smtp.messages
    .filter((m) => m.to.includes(to))
    .map((m) => decodeMail(m.raw))
    .filter((m) => m.subject === subject);

const linkIn = (text: string) => {
  const match = /(http:\/\/127\.0\.0\.1:\d+)(\/auth\/passwort\/[A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no link in ${text}`);
  return match[2];
};

/** Waits for the n-th mail of a subject to an address and returns its set-password link. */
async function nthLink(to: string, subject: string, n = 1): Promise<string> {
  const mail = await eventually(async () => mailsTo(to, subject)[n - 1]);
  return linkIn(mail.text);
}

const form = (body: Record<string, string>, address = '203.0.113.10') => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
  body: new URLSearchParams(body).toString(),
});

async function requestReset(email: string, address = '203.0.113.10') {
  const res = await fetch(`${t.baseUrl}/auth/passwort-vergessen`, form({ email }, address));
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
}

const openLink = async (path: string) => {
  const res = await fetch(`${t.baseUrl}${path}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const submitLink = async (path: string, password: string, repeat = password) => {
  const res = await fetch(`${t.baseUrl}${path}`, form({ password, passwordRepeat: repeat }));
  return { status: res.status, text: await res.text() };
};

const signInWorks = (email: string, password: string) =>
  loginWithCodeFlow(t.config.publicUrl, email, password).then(
    () => true,
    () => false,
  );

/** The login page of a fresh authorization request. */
async function loginPageHtml(): Promise<string> {
  const authorize = new URL(`${t.config.publicUrl}/auth/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'shk-portal-web',
    response_type: 'code',
    redirect_uri: `${t.config.publicUrl}/auth-callback`,
    scope: 'openid profile email',
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'x',
  }).toString();
  const start = await fetch(authorize, { redirect: 'manual' });
  const cookies = start.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const page = await fetch(new URL(start.headers.get('location')!, t.baseUrl), { headers: { cookie: cookies } });
  expect(page.status).toBe(200);
  return page.text();
}

describe('the login page', () => {
  it("links 'Passwort vergessen?', Impressum and Datenschutz and uses the portal's typeface", async () => {
    const html = await loginPageHtml();
    const uid = /action="\/auth\/interaction\/([^/"]+)\/login"/.exec(html)![1];
    expect(html).toContain(`<a href="/auth/passwort-vergessen?anmeldung=${uid}">Passwort vergessen?</a>`);
    expect(html).toContain('<a href="/impressum">Impressum</a>');
    expect(html).toContain('<a href="/datenschutz">Datenschutz</a>');
    expect(html).toContain(`font-family:${PORTAL_FONT_FAMILY}`);
    // Nothing loaded from elsewhere: no font or stylesheet link, no @import or url() in the styles.
    expect(html).not.toMatch(/<link[^>]+stylesheet|@import|@font-face|url\(/);

    const forgot = await fetch(`${t.baseUrl}/auth/passwort-vergessen?anmeldung=${uid}`);
    expect(forgot.status).toBe(200);
    const page = await forgot.text();
    expect(page).toContain('<h1>Passwort vergessen?</h1>');
    expect(page).toContain(`<a href="/auth/interaction/${uid}">Zurück zur Anmeldung</a>`);
    // The same Content-Security-Policy as every page: scripts only from the portal, fonts only from the portal.
    const csp = forgot.headers.get('content-security-policy')!;
    expect(csp).toContain("font-src 'self' data:");
    expect(csp).toContain("script-src 'self'");
  });
});

describe('Passwort vergessen?', () => {
  it('answers known and unknown addresses alike and mails a one-time link (30 minutes, only its hash stored)', async () => {
    const user = await newUser('vergessen');
    const unknown = `niemand-${randomBytes(4).toString('hex')}@example.com`;
    const known = await requestReset(user.email, '203.0.113.11');
    const other = await requestReset(unknown, '203.0.113.11');
    expect(known.status).toBe(200);
    expect(other.status).toBe(200);
    expect(known.text).toBe(other.text);
    expect(known.text).toContain(passwordTexts.forgotSent.replace('„', '&#8222;'));

    const link = await nthLink(user.email, passwordTexts.resetMailSubject);
    const token = link.split('/').pop()!;
    const [row] = await sql(
      `SELECT token_hash, purpose, extract(epoch FROM expires_at - created_at)::int AS seconds
         FROM password_links WHERE user_id = $1`,
      [user.id],
    );
    expect(row.purpose).toBe('reset');
    expect(row.seconds).toBe(passwordRules.resetLinkMinutes * 60);
    expect(Buffer.compare(row.token_hash, createHash('sha256').update(token).digest())).toBe(0);
    expect(
      (await sql('SELECT count(*)::int AS n FROM password_links WHERE token_hash::text LIKE $1', [`%${token}%`]))[0].n,
    ).toBe(0);

    // The unknown address: no mail in the outbox (the job ran: the known one's mail, queued after it, arrived).
    await eventually(
      async () =>
        (await sql("SELECT 1 FROM pgboss.job WHERE name = 'identity.password-reset-request' AND state = 'completed'"))
          .length >= 2,
    );
    expect(await sql('SELECT 1 FROM mail_outbox WHERE lower(to_address) = lower($1)', [unknown])).toHaveLength(0);
  });

  it("opens 'Neues Passwort festlegen', enforces the rules, sets the password once and refuses the link afterwards", async () => {
    const user = await newUser('neu');
    const older = (await requestReset(user.email, '203.0.113.12')).status;
    expect(older).toBe(200);
    const olderLink = await nthLink(user.email, passwordTexts.resetMailSubject, 1);
    await requestReset(user.email, '203.0.113.12');
    const link = await nthLink(user.email, passwordTexts.resetMailSubject, 2);

    // A browser session and its tokens from before the reset.
    const before = await loginWithCodeFlow(t.config.publicUrl, user.email, 'demo');
    expect((await t.request('GET', '/v1/UserProfile', { token: before.access_token })).status).toBe(200);

    const page = await openLink(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Neues Passwort festlegen</h1>');
    expect(page.text).toContain('lang="de"');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Opening the link does not use it up.
    expect((await openLink(link)).status).toBe(200);

    const tooShort = await submitLink(link, 'kurz');
    expect(tooShort.status).toBe(400);
    expect(tooShort.text).toContain(passwordTexts.tooShort);
    const common = await submitLink(link, 'Passwort1234');
    expect(common.status).toBe(400);
    expect(common.text).toContain(passwordTexts.common);
    const fromList = await submitLink(link, '1qaz2wsx3edc');
    expect(fromList.text).toContain(passwordTexts.common);
    const mismatch = await submitLink(link, STRONG, `${STRONG}!`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain(passwordTexts.mismatch);
    const tooLong = await submitLink(link, 'x'.repeat(passwordRules.maxLength + 1));
    expect(tooLong.text).toContain(passwordTexts.tooLong);

    const done = await submitLink(link, STRONG);
    expect(done.status).toBe(200);
    expect(done.text).toContain(passwordTexts.passwordSet);
    expect(await signInWorks(user.email, STRONG)).toBe(true);
    expect(await signInWorks(user.email, 'demo')).toBe(false);

    // Used: the same link and the older one are refused with the German message.
    for (const used of [link, olderLink]) {
      const again = await openLink(used);
      expect(again.status).toBe(410);
      expect(again.text).toContain('Dieser Link ist nicht mehr gültig');
      expect((await submitLink(used, 'Ein ganz anderes Passwort 1')).status).toBe(410);
    }
    expect(await signInWorks(user.email, STRONG)).toBe(true);

    // The other sign-ins ended: the old access token and refresh token are dead.
    expect((await t.request('GET', '/v1/UserProfile', { token: before.access_token })).status).toBe(401);
    const refresh = await fetch(`${t.config.publicUrl}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before.refresh_token!,
        client_id: 'shk-portal-web',
      }).toString(),
    });
    expect(refresh.status).toBe(400);

    // The owner is told (through the outbox).
    await eventually(async () => mailsTo(user.email, passwordTexts.changedMailSubject)[0]);
  });

  it('refuses an expired link', async () => {
    const user = await newUser('abgelaufen');
    await requestReset(user.email, '203.0.113.13');
    const link = await nthLink(user.email, passwordTexts.resetMailSubject);
    await sql("UPDATE password_links SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    const page = await openLink(link);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Dieser Link ist nicht mehr gültig');
    expect((await submitLink(link, STRONG)).status).toBe(410);
    expect(await signInWorks(user.email, 'demo')).toBe(true);
  });

  it('throttles requests per requested address and per client address, the same for unknown addresses', async () => {
    for (const email of [(await newUser('drossel')).email, `unbekannt-${randomBytes(4).toString('hex')}@example.com`]) {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await requestReset(email, `203.0.113.${20 + i}`));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3].text).toContain('Es wurden zu viele Links angefordert');
      expect(Number(answers[3].retryAfter)).toBeGreaterThan(0);
    }
    // Per client address: 21 different addresses requested from one client; the 22nd is refused.
    const statuses = [];
    for (let i = 0; i < 22; i++) {
      statuses.push(
        (await requestReset(`viele-${i}-${randomBytes(3).toString('hex')}@example.com`, '198.51.100.99')).status,
      );
    }
    expect(statuses.slice(0, 21).every((s) => s === 200)).toBe(true);
    expect(statuses[21]).toBe(429);
    // The counters live in PostgreSQL (sign_in_failures, like the failed sign-ins).
    expect(await sql("SELECT 1 FROM sign_in_failures WHERE key = 'reset:address:198.51.100.99'")).toHaveLength(1);
  });
});

describe('Passwort ändern (PUT /v1/UserProfile/Password)', () => {
  it('checks the current password and the rules with German messages, then ends the other sign-ins only', async () => {
    const user = await newUser('aendern');
    const other = await loginWithCodeFlow(t.config.publicUrl, user.email, 'demo');
    const own = await loginWithCodeFlow(t.config.publicUrl, user.email, 'demo');
    const change = (body: Record<string, string>) =>
      t.request('PUT', '/v1/UserProfile/Password', { token: own.access_token, body });

    const wrong = await change({ currentPassword: 'falsch', newPassword: STRONG, newPasswordRepeat: STRONG });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      expect.objectContaining({ field: 'body.currentPassword', message: passwordTexts.currentWrong }),
    ]);

    const short = await change({ currentPassword: 'demo', newPassword: 'kurz', newPasswordRepeat: 'kurz' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toContainEqual(
      expect.objectContaining({ field: 'body.newPassword', message: passwordTexts.tooShort }),
    );

    const mismatch = await change({ currentPassword: 'demo', newPassword: STRONG, newPasswordRepeat: 'anders anders' });
    expect(mismatch.body.errors).toContainEqual(
      expect.objectContaining({ field: 'body.newPasswordRepeat', message: passwordTexts.mismatch }),
    );

    const common = await change({
      currentPassword: 'demo',
      newPassword: 'qwertyuiop123',
      newPasswordRepeat: 'qwertyuiop123',
    });
    expect(common.status).toBe(400);
    expect(common.body.errors).toContainEqual(
      expect.objectContaining({ field: 'body.newPassword', message: passwordTexts.common }),
    );

    const ownAddress = await change({
      currentPassword: 'demo',
      newPassword: user.email,
      newPasswordRepeat: user.email,
    });
    expect(ownAddress.body.errors).toContainEqual(
      expect.objectContaining({ field: 'body.newPassword', message: passwordTexts.sameAsEmail }),
    );

    const ok = await change({ currentPassword: 'demo', newPassword: STRONG, newPasswordRepeat: STRONG });
    expect(ok.status).toBe(204);
    expect(await signInWorks(user.email, STRONG)).toBe(true);
    expect(await signInWorks(user.email, 'demo')).toBe(false);
    // This sign-in stays, the other one ended.
    expect((await t.request('GET', '/v1/UserProfile', { token: own.access_token })).status).toBe(200);
    expect((await t.request('GET', '/v1/UserProfile', { token: other.access_token })).status).toBe(401);
    await eventually(async () => mailsTo(user.email, passwordTexts.changedMailSubject)[0]);
    // A password change also ends the open reset links.
    expect(await sql('SELECT 1 FROM password_links WHERE user_id = $1 AND used_at IS NULL', [user.id])).toHaveLength(0);
  });

  it('counts wrong current passwords like failed sign-ins', async () => {
    const user = await newUser('raten');
    const token = (await loginWithCodeFlow(t.config.publicUrl, user.email, 'demo')).access_token;
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.request('PUT', '/v1/UserProfile/Password', {
        token,
        body: { currentPassword: `falsch-${i}`, newPassword: STRONG, newPasswordRepeat: STRONG },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('invitations (POST /v1/Users/Invitations)', () => {
  it('staff invite a buyer by mail; the person sets a password through the link (7 days) and signs in', async () => {
    const email = `eingeladen-${randomBytes(4).toString('hex')}@example.com`;
    const res = await t.request('POST', '/v1/Users/Invitations', {
      as: 'support@example.com',
      body: { email, firstName: 'Ina', lastName: 'Neu', role: 1, businessPartnerNumbers: ['100001'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, userId: expect.any(String) });
    const [link] = await sql(
      `SELECT purpose, extract(epoch FROM expires_at - created_at)::int AS seconds FROM password_links WHERE user_id = $1`,
      [res.body.userId],
    );
    expect(link).toEqual({ purpose: 'invitation', seconds: passwordRules.invitationLinkDays * 24 * 3600 });
    // No password yet: nobody can sign in as the invited person.
    expect(await signInWorks(email, '')).toBe(false);

    const mail = await eventually(async () => mailsTo(email, passwordTexts.invitationMailSubject)[0]);
    expect(mail.text).toContain('Guten Tag Ina Neu,');
    expect(mail.text).toContain(`${passwordRules.invitationLinkDays} Tage gültig`);
    const path = linkIn(mail.text);
    const page = await openLink(path);
    expect(page.text).toContain('<h1>Willkommen – Passwort festlegen</h1>');
    expect((await submitLink(path, 'passwort1234')).text).toContain(passwordTexts.common);
    expect((await submitLink(path, STRONG)).status).toBe(200);

    const tokens = await loginWithCodeFlow(t.config.publicUrl, email, STRONG);
    const me = await t.request('GET', '/v1/UserProfile', { token: tokens.access_token });
    expect(me.body).toMatchObject({ email, role: 1, currentBpNumber: '100001', firstName: 'Ina' });
    expect((await openLink(path)).status).toBe(410);
  });

  it('refuses taken addresses, missing or unknown partners and roles the inviter may not give', async () => {
    const invite = (as: string, body: Record<string, unknown>) =>
      t.request('POST', '/v1/Users/Invitations', { as, body });
    const taken = await invite('admin@example.com', {
      email: 'EINKAUF@example.com',
      role: 1,
      businessPartnerNumbers: ['100001'],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.title).toBe(passwordTexts.emailTaken);

    const fresh = () => `x-${randomBytes(4).toString('hex')}@example.com`;
    const noPartner = await invite('admin@example.com', { email: fresh(), role: 2 });
    expect(noPartner.status).toBe(400);
    expect(noPartner.body.errors[0].message).toBe(passwordTexts.partnerRequired);
    const unknown = await invite('admin@example.com', { email: fresh(), role: 1, businessPartnerNumbers: ['999999'] });
    expect(unknown.body.errors[0].message).toBe(passwordTexts.partnerUnknown('999999'));
    const sellerAtCustomer = await invite('admin@example.com', {
      email: fresh(),
      role: 2,
      businessPartnerNumbers: ['100001'],
    });
    expect(sellerAtCustomer.body.errors[0].message).toBe(passwordTexts.partnerNotSupplier('100001'));
    const buyerAtSupplier = await invite('admin@example.com', {
      email: fresh(),
      role: 1,
      businessPartnerNumbers: ['200001'],
    });
    expect(buyerAtSupplier.body.errors[0].message).toBe(passwordTexts.partnerIsSupplier('200001'));
    expect(
      (await invite('admin@example.com', { email: fresh(), role: 2, businessPartnerNumbers: ['200001'] })).status,
    ).toBe(201);
    const staffWithPartner = await invite('admin@example.com', {
      email: fresh(),
      role: 4,
      businessPartnerNumbers: ['100001'],
    });
    expect(staffWithPartner.status).toBe(400);
    const badEmail = await invite('admin@example.com', { email: 'kein-mail', role: 3 });
    expect(badEmail.status).toBe(400);

    const supportMakesAdmin = await invite('support@example.com', { email: fresh(), role: 3 });
    expect(supportMakesAdmin.status).toBe(403);
    expect(supportMakesAdmin.body.title).toBe(passwordTexts.roleNotAllowed);
    expect(
      (await invite('einkauf@example.com', { email: fresh(), role: 1, businessPartnerNumbers: ['100001'] })).status,
    ).toBe(403);

    // An administrator may invite staff (no partner).
    expect((await invite('admin@example.com', { email: fresh(), role: 4 })).status).toBe(201);
  });

  it('inviting an address again that has no password yet sends a fresh link', async () => {
    const email = `zweimal-${randomBytes(4).toString('hex')}@example.com`;
    const body = { email, role: 1, businessPartnerNumbers: ['100001'] };
    const first = await t.request('POST', '/v1/Users/Invitations', { as: 'admin@example.com', body });
    const second = await t.request('POST', '/v1/Users/Invitations', { as: 'admin@example.com', body });
    expect(second.status).toBe(201);
    expect(second.body.userId).toBe(first.body.userId);
    await nthLink(email, passwordTexts.invitationMailSubject, 2);
  });
});
