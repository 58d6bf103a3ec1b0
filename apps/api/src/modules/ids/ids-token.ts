import type pg from 'pg';
import { SignJWT, importJWK, type JWK } from 'jose';
import { IDS_SESSION_LIFETIME_SECONDS } from '@shk/contracts';
import type { AppConfig } from '../../config.ts';
import { loadOrCreateKeys } from '../identity/index.ts';
import { HttpProblem } from '../../http/problem.ts';

/**
 * The token lives as long as the IDS session may (two hours); there is no refresh (ADR 0002). The session itself
 * (idle time, sign-out, return) is checked in the database on use (http/auth.ts).
 */
export const IDS_TOKEN_TTL_SECONDS = IDS_SESSION_LIFETIME_SECONDS;

export interface IdsTokens {
  accessToken: string;
  identityToken: string;
  expiresIn: number;
  scope: string;
}

/**
 * Tokens for an IDS session, signed with the embedded provider's key for its issuer and the API
 * audience, so the API's one verifier accepts them; `ids_context` marks the session (ADR 0002).
 */
export function idsTokenIssuer(config: AppConfig, pool: pg.Pool) {
  let key: Promise<{ kid?: string; key: CryptoKey | Uint8Array }> | null = null;
  const signingKey = () =>
    (key ??= loadOrCreateKeys(pool, config.dataDir).then(async (keys) => {
      const jwk = keys.jwks.keys[0] as JWK;
      return { kid: jwk.kid, key: (await importJWK(jwk, 'RS256')) as CryptoKey };
    }));

  return async (user: { id: string; email: string; name: string }, contextId: string): Promise<IdsTokens> => {
    if (config.oidcIssuer) {
      throw new HttpProblem(501, 'IDS-Anmeldung nicht verfügbar', {
        detail: 'Mit einem externen Identitätsanbieter (OIDC_ISSUER) ist die IDS-Anmeldung nicht eingerichtet.',
      });
    }
    const issuer = `${config.publicUrl}/auth`;
    const { kid, key: k } = await signingKey();
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await new SignJWT({
      scope: 'openid api',
      ids_context: contextId,
      client_id: config.oidcClientId,
    })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(config.oidcAudience)
      .setSubject(user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + IDS_TOKEN_TTL_SECONDS)
      .setJti(crypto.randomUUID())
      .sign(k);
    const identityToken = await new SignJWT({ email: user.email, name: user.name, ids_context: contextId })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(issuer)
      .setAudience(config.oidcClientId)
      .setSubject(user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + IDS_TOKEN_TTL_SECONDS)
      .sign(k);
    return { accessToken, identityToken, expiresIn: IDS_TOKEN_TTL_SECONDS, scope: 'openid profile email api' };
  };
}
