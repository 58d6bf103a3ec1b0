import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface IdentityKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

/**
 * Signing keys and cookie secrets of the embedded provider, created once and kept in
 * DATA_DIR/identity/keys.json so that issued tokens stay valid across restarts.
 */
export async function loadOrCreateKeys(dataDir: string): Promise<IdentityKeys> {
  const file = path.join(dataDir, 'identity', 'keys.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as IdentityKeys;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const keys: IdentityKeys = {
    jwks: { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** The public half of the signing keys (what the API verifies tokens against). */
export function publicJwks(keys: IdentityKeys): { keys: JWK[] } {
  return {
    keys: keys.jwks.keys.map(({ kty, n, e, kid, alg, use, crv, x, y }) => ({ kty, n, e, kid, alg, use, crv, x, y })),
  };
}
