import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { changeSharedSecret, readSharedSecret, sharedSecret } from '../cluster/index.ts';

export interface IdentityKeys {
  /** Private signing keys, newest first: the first one signs, every one verifies. */
  jwks: { keys: JWK[] };
  /** Cookie secrets, newest first: the first one signs cookies, every one verifies. */
  cookieKeys: string[];
}

/** What cluster_secrets keeps under IDENTITY_KEYS: the keys plus when each signing key was made. */
interface StoredIdentityKeys extends IdentityKeys {
  createdAt: Record<string, string>;
}

const IDENTITY_KEYS = 'identity_keys';
/** A signing key signs for this long before a start of any node puts a new one in front of it. */
export const SIGNING_KEY_ROTATION_DAYS = 90;
/** Retired keys still verify (and cookie secrets still read) this long: longer than any token or session lives. */
const RETIRED_KEY_KEPT_DAYS = 15;
const DAY_MS = 86_400_000;

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

/**
 * The keys an installation had in DATA_DIR/identity/keys.json before they moved into the database: taken over once,
 * so tokens and sessions issued before the upgrade stay valid.
 */
function keysFromDataDir(dataDir: string): IdentityKeys | null {
  const file = path.join(dataDir, 'identity', 'keys.json');
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as IdentityKeys;
}

/**
 * Signing keys and cookie secrets of the embedded provider, shared by every node through PostgreSQL
 * (cluster_secrets, migration 0440): a token signed by one node verifies on every other, and a sign-in's steps may
 * land on different nodes. Created once by the first node that starts (two starting together agree on the first
 * row written); an installation upgraded from a single node keeps its DATA_DIR keys. A signing key older than
 * SIGNING_KEY_ROTATION_DAYS is replaced at a node's start; the old one keeps verifying for RETIRED_KEY_KEPT_DAYS.
 */
export async function loadOrCreateKeys(pool: pg.Pool, dataDir: string): Promise<IdentityKeys> {
  let stored = await sharedSecret<StoredIdentityKeys>(
    pool,
    IDENTITY_KEYS,
    () => {
      const legacy = keysFromDataDir(dataDir);
      const now = new Date().toISOString();
      return legacy && { ...legacy, createdAt: Object.fromEntries(legacy.jwks.keys.map((k) => [k.kid!, now])) };
    },
    freshKeys,
  );
  if (signingKeyAge(stored) > SIGNING_KEY_ROTATION_DAYS * DAY_MS) stored = await rotateKeys(pool);
  return { jwks: stored.jwks, cookieKeys: stored.cookieKeys };
}

/** The keys as stored now (a node that sees a token with an unknown key id reads them again). */
export async function readKeys(pool: pg.Pool): Promise<IdentityKeys | undefined> {
  const stored = await readSharedSecret<StoredIdentityKeys>(pool, IDENTITY_KEYS);
  return stored && { jwks: stored.jwks, cookieKeys: stored.cookieKeys };
}

async function freshKeys(): Promise<StoredIdentityKeys> {
  const key = await newSigningKey();
  return {
    jwks: { keys: [key] },
    cookieKeys: [randomBytes(32).toString('base64url')],
    createdAt: { [key.kid!]: new Date().toISOString() },
  };
}

function signingKeyAge(stored: StoredIdentityKeys, now = Date.now()): number {
  const kid = stored.jwks.keys[0]?.kid;
  const created = kid ? stored.createdAt?.[kid] : undefined;
  return created ? now - Date.parse(created) : 0;
}

/**
 * Puts a new signing key and cookie secret in front (under an advisory lock: two nodes rotating together rotate
 * once) and drops retired keys older than RETIRED_KEY_KEPT_DAYS beyond their rotation. `force` rotates whatever the
 * age (an operator's rotation after a suspected leak).
 */
export async function rotateKeys(pool: pg.Pool, force = false): Promise<StoredIdentityKeys> {
  const result = await changeSharedSecret<StoredIdentityKeys>(pool, IDENTITY_KEYS, async (current) => {
    if (!current) return freshKeys();
    if (!force && signingKeyAge(current) <= SIGNING_KEY_ROTATION_DAYS * DAY_MS) return null;
    const key = await newSigningKey();
    const now = Date.now();
    const keepSince = now - (SIGNING_KEY_ROTATION_DAYS + RETIRED_KEY_KEPT_DAYS) * DAY_MS;
    const kept = current.jwks.keys.filter(
      (k, i) => i === 0 || Date.parse(current.createdAt?.[k.kid!] ?? '') > keepSince,
    );
    return {
      jwks: { keys: [key, ...kept] },
      cookieKeys: [randomBytes(32).toString('base64url'), ...current.cookieKeys].slice(0, kept.length + 1),
      createdAt: {
        [key.kid!]: new Date(now).toISOString(),
        ...Object.fromEntries(kept.map((k) => [k.kid!, current.createdAt?.[k.kid!] ?? new Date(now).toISOString()])),
      },
    };
  });
  return result!;
}

/** The public half of the signing keys (what the API verifies tokens against). */
export function publicJwks(keys: IdentityKeys): { keys: JWK[] } {
  return {
    keys: keys.jwks.keys.map(({ kty, n, e, kid, alg, use, crv, x, y }) => ({ kty, n, e, kid, alg, use, crv, x, y })),
  };
}
