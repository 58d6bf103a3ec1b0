import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * A second, independently configured OpenID provider: its own key pair, discovery document and JWKS
 * served on 127.0.0.1. The portal runs with OIDC_ISSUER/OIDC_AUDIENCE pointing at it (so the embedded
 * provider is not mounted) and a custom e-mail claim, and must accept exactly the tokens it should.
 */
const AUDIENCE = 'urn:test:external-api';
const EMAIL_CLAIM = 'upn';
let issuer: string;
let server: http.Server;
let t: TestApp;
let sign: (
  claims: JWTPayload,
  options?: { audience?: string; expiresIn?: string | number; issuer?: string; key?: CryptoKey },
) => Promise<string>;
let foreignKey: CryptoKey;
let signingKey: CryptoKey;
let jwksRequests = 0;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  foreignKey = (await generateKeyPair('ES256')).privateKey;
  signingKey = privateKey;
  const kid = 'external-test-key';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };

  server = http.createServer((req, res) => {
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return send({
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        id_token_signing_alg_values_supported: ['ES256'],
      });
    }
    if (req.url === '/jwks') {
      jwksRequests += 1;
      return send({ keys: [jwk] });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  sign = (claims, options = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? AUDIENCE)
      // An absolute expiry (seconds) makes a token of the past: issued an hour before it expired.
      .setIssuedAt(typeof options.expiresIn === 'number' ? options.expiresIn - 3600 : undefined)
      .setExpirationTime(options.expiresIn ?? '10m')
      .sign(options.key ?? privateKey);

  t = await startTestApp({
    env: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: AUDIENCE, OIDC_EMAIL_CLAIM: EMAIL_CLAIM, OIDC_CLIENT_ID: 'portal-spa' },
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const profile = (token: string) => t.request('GET', '/v1/UserProfile', { token });

function expect401(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status: 401, type: 'unauthorized' });
}

describe('external identity provider', () => {
  it('does not mount the embedded provider and tells the SPA the external authority', async () => {
    expect(t.identity).toBeNull();
    expect((await t.request('GET', '/auth/.well-known/openid-configuration')).status).toBe(404);
    const config = await t.request('GET', '/v1/ClientConfig');
    expect(config.body).toMatchObject({ authority: issuer, clientId: 'portal-spa' });
  });

  it('finds the user by the configured e-mail claim on first login, then by subject', async () => {
    const first = await profile(
      await sign({ sub: 'ext|buyer-1', [EMAIL_CLAIM]: 'Einkauf@Example.com', email_verified: true }),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ email: 'einkauf@example.com', role: 1, currentBpNumber: '100001' });
    const bound = await t.pool.query('SELECT external_subject FROM users WHERE email = $1', ['einkauf@example.com']);
    expect(bound.rows[0].external_subject).toBe('ext|buyer-1');

    // Later tokens need no e-mail: the subject is bound now.
    const later = await profile(await sign({ sub: 'ext|buyer-1' }));
    expect(later.status).toBe(200);
    expect(later.body.email).toBe('einkauf@example.com');
    // The plain `email` claim is not the configured one and does not matter.
    const seller = await profile(
      await sign({
        sub: 'ext|seller-1',
        email: 'einkauf@example.com',
        [EMAIL_CLAIM]: 'verkauf@example.com',
        email_verified: true,
      }),
    );
    expect(seller.body).toMatchObject({ email: 'verkauf@example.com', role: 2 });
  });

  it('does not rebind an e-mail whose user already has another subject', async () => {
    const res = await profile(
      await sign({ sub: 'ext|intruder', [EMAIL_CLAIM]: 'einkauf@example.com', email_verified: true }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses a valid token of someone the portal does not know (403 problem)', async () => {
    const res = await profile(await sign({ sub: 'ext|nobody', [EMAIL_CLAIM]: 'unbekannt@example.com' }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403 });
  });

  it('links by e-mail only when the issuer says the address is verified', async () => {
    const unverified = await profile(await sign({ sub: 'ext|admin-1', [EMAIL_CLAIM]: 'admin@example.com' }));
    expect(unverified.status).toBe(403);
    const bound = await t.pool.query('SELECT external_subject FROM users WHERE email = $1', ['admin@example.com']);
    expect(bound.rows[0].external_subject).toBeNull();
    const verified = await profile(
      await sign({ sub: 'ext|admin-1', [EMAIL_CLAIM]: 'admin@example.com', email_verified: true }),
    );
    expect(verified.status).toBe(200);
  });

  it('rejects a token without expiry', async () => {
    const token = await new SignJWT({ sub: 'ext|buyer-1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'external-test-key', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .sign(signingKey);
    expect401(await profile(token));
  });

  it('rejects a token for another audience', async () => {
    expect401(await profile(await sign({ sub: 'ext|buyer-1' }, { audience: 'urn:someone-else' })));
  });

  it('rejects an expired token', async () => {
    const res = await profile(await sign({ sub: 'ext|buyer-1' }, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }));
    expect401(res);
    expect(res.body.detail).toBe('Das Zugriffstoken ist abgelaufen.');
  });

  it('rejects an unsigned token (alg none)', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: issuer, aud: AUDIENCE, sub: 'ext|buyer-1', iat: now, exp: now + 600 })}.`;
    expect401(await profile(unsigned));
  });

  it('rejects a token signed by another key, from another issuer, or garbage', async () => {
    expect401(await profile(await sign({ sub: 'ext|buyer-1' }, { key: foreignKey })));
    expect401(await profile(await sign({ sub: 'ext|buyer-1' }, { issuer: 'http://127.0.0.1:1/other' })));
    expect401(await profile('not-a-jwt'));
    expect(jwksRequests).toBeGreaterThan(0);
  });
});
