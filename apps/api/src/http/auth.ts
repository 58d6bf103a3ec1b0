import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  errors as joseErrors,
  type JWTPayload,
  type JSONWebKeySet,
} from 'jose';
import { LRUCache } from 'lru-cache';
import { IDS_SESSION_IDLE_SECONDS, Role, idsMessages } from '@shk/contracts';
import type { Db } from '../db/pool.ts';
import { forbidden, unauthorized } from './problem.ts';
import { isDatabaseUnavailable } from '../db/pool.ts';
import { CallerCache } from './caller-cache.ts';
import type { Caller } from './caller.ts';

export type { Caller } from './caller.ts';

/**
 * What an IDS session may do on a route: nothing when absent (403), the route as it is ('allowed'), or the route
 * after a check of the request's objects (a guard that throws, e.g. "only the session's cart"). A guard runs for
 * every caller of the route, IDS session or not, and decides itself what applies to whom.
 */
export type IdsScope = 'allowed' | ((request: FastifyRequest) => Promise<void>);

/**
 * Which roles may call a route. Every /v1 route declares it in `config.roles`:
 * 'public' (no token), 'authenticated' (any known user, role None included) or a role list.
 */
export type RouteAccess = 'public' | 'authenticated' | readonly Role[];

/** A registered /v1 route and its declared access (the role × endpoint matrix test enumerates these). */
export interface RouteAccessEntry {
  method: string;
  url: string;
  roles: RouteAccess;
  /** How an IDS session may call it (absent: not at all). */
  ids?: 'allowed' | 'guarded';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    roles?: RouteAccess;
    /** The 403 detail when the caller's role is not allowed (a message the spec names for that call). */
    forbiddenDetail?: string;
    /**
     * The route changes what the auth hook reads for its own caller (current partner, IDS context completed): the
     * caller cache drops the caller's entries before the answer goes out, not only on the notification.
     */
    changesCaller?: boolean;
    /** Whether and how an IDS session's token may call the route (absent: refused with 403). */
    ids?: IdsScope;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    routeAccess: RouteAccessEntry[];
    /** The auth hook's cache of callers per token (caller-cache.ts). */
    callerCache: CallerCache;
  }
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Keys of the embedded provider (no HTTP round trip), or undefined to discover the issuer's jwks_uri. */
  localJwks?: () => JSONWebKeySet;
  /** Reads the embedded provider's keys again: another node may have rotated a new signing key in. */
  reloadLocalJwks?: () => Promise<JSONWebKeySet>;
  emailClaim: string;
}

export type TokenVerifier = (token: string) => Promise<JWTPayload>;

/** A correctly signed token whose grant has ended (the user signed out). */
export class TokenRevoked extends Error {}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  let keySet: ReturnType<typeof createRemoteJWKSet> | ReturnType<typeof createLocalJWKSet> | undefined;
  const getKeySet = async () => {
    if (keySet) return keySet;
    if (options.localJwks) {
      keySet = createLocalJWKSet(options.localJwks());
    } else {
      const discovery = await fetch(`${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
      if (!discovery.ok) throw new Error(`OIDC discovery failed: ${discovery.status}`);
      const { jwks_uri } = (await discovery.json()) as { jwks_uri: string };
      keySet = createRemoteJWKSet(new URL(jwks_uri));
    }
    return keySet;
  };
  // A token's signature, issuer, audience and required claims are checked once per process; later requests with the
  // same token re-check only its time window (exp/nbf with the same tolerance). The grant (sign-out), the user, the
  // role and the partners are still read from the database on every request. Saves the signature check (WebCrypto,
  // about a fifth of a millisecond) on every call; a key withdrawn from the issuer's JWKS is noticed when its tokens
  // expire (minutes) or the process restarts.
  const verified = new LRUCache<string, JWTPayload>({ max: 10_000 });
  const inWindow = (payload: JWTPayload) => {
    const now = Date.now() / 1000;
    return typeof payload.exp === 'number' && payload.exp + 5 > now && (payload.nbf == null || payload.nbf - 5 <= now);
  };
  // A key id this process does not know: another node may have rotated a new signing key in (identity/keys.ts).
  // Read the keys again, at most every 10 s (a forged kid must not turn every request into a database read).
  let reloadedAt = 0;
  const reloadKeySet = async () => {
    if (!options.reloadLocalJwks || Date.now() - reloadedAt < 10_000) return false;
    reloadedAt = Date.now();
    keySet = createLocalJWKSet(await options.reloadLocalJwks());
    return true;
  };
  const verifyOptions = {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
    clockTolerance: 5,
    // A token without expiry would be valid forever; one without subject names nobody.
    requiredClaims: ['exp', 'sub'],
  };
  return async (token) => {
    const hit = verified.get(token);
    if (hit && inWindow(hit)) return hit;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await getKeySet(), verifyOptions));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || !(await reloadKeySet())) throw error;
      ({ payload } = await jwtVerify(token, await getKeySet(), verifyOptions));
    }
    verified.set(token, payload);
    return payload;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: number;
  current_bp_number: string | null;
  external_subject: string | null;
  partners: string[] | null;
}

/** Finds the user of a verified token: by subject, else by e-mail (binding the subject on first login). */
export async function findCaller(db: Db, payload: JWTPayload, emailClaim: string): Promise<Caller | null> {
  const sub = payload.sub;
  if (!sub) return null;
  const pool = db.$client;
  const select = `SELECT u.id, u.email, u.first_name, u.last_name, u.role, u.current_bp_number, u.external_subject,
      array_remove(array_agg(m.bp_number ORDER BY m.bp_number), NULL) AS partners
    FROM users u LEFT JOIN user_business_partners m ON m.user_id = u.id`;
  let row = (
    await pool.query<UserRow>(
      `${select} WHERE u.external_subject = $1 ${UUID.test(sub) ? 'OR u.id = $1::uuid' : ''} GROUP BY u.id LIMIT 1`,
      [sub],
    )
  ).rows[0];
  if (!row) {
    const email = payload[emailClaim];
    if (typeof email !== 'string' || !email) return null;
    // Linking by e-mail trusts the issuer's statement that the address belongs to the person.
    if (payload.email_verified !== true && payload.email_verified !== 'true') return null;
    row = (
      await pool.query<UserRow>(
        `${select} WHERE lower(u.email) = lower($1) AND u.external_subject IS NULL GROUP BY u.id`,
        [email],
      )
    ).rows[0];
    if (!row) return null;
    await pool.query('UPDATE users SET external_subject = $2 WHERE id = $1 AND external_subject IS NULL', [
      row.id,
      sub,
    ]);
  }
  const partners = row.partners ?? [];
  // The stored current partner only counts while the user still belongs to it.
  const bpNumber =
    row.current_bp_number && partners.includes(row.current_bp_number) ? row.current_bp_number : (partners[0] ?? null);
  return {
    userId: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role as Role,
    bpNumber,
    partners,
    idsContextId: typeof payload.ids_context === 'string' ? payload.ids_context : null,
  };
}

export const IDS_SESSION_ENDED = 'Die IDS-Sitzung ist beendet, weil der Warenkorb zurückgegeben wurde.';

/**
 * An IDS token (claim ids_context, ADR 0002) is good only while its session is open: started by the code exchange,
 * not past its lifetime, used within the idle time, not signed out, and its cart not yet returned to the craftsman
 * program. Each check here counts as use (last_seen_at). Returns the session's partner, or the reason it is over.
 */
async function openIdsSession(
  db: Db,
  contextId: string,
  userId: string,
): Promise<{ bpNumber: string } | { ended: string }> {
  if (!UUID.test(contextId)) return { ended: idsMessages.sessionEnded };
  const { rows } = await db.$client.query<{ bp_number: string }>(
    `UPDATE ids_contexts SET last_seen_at = now()
      WHERE id = $1::uuid AND user_id = $2::uuid AND completed_at IS NULL AND revoked_at IS NULL
        AND session_expires_at > now() AND last_seen_at > now() - make_interval(secs => $3)
      RETURNING bp_number`,
    [contextId, userId, IDS_SESSION_IDLE_SECONDS],
  );
  if (rows[0]) return { bpNumber: rows[0].bp_number };
  const completed = await db.$client.query(
    'SELECT 1 FROM ids_contexts WHERE id = $1::uuid AND user_id = $2::uuid AND completed_at IS NOT NULL',
    [contextId, userId],
  );
  return { ended: completed.rows.length ? IDS_SESSION_ENDED : idsMessages.sessionEnded };
}

/** An IDS session's cached caller is checked again (and its use recorded) after this long. */
const IDS_RECHECK_MS = 60_000;

/** The caller of an IDS token: only the session's partner, whatever the user's normal session has chosen. */
async function idsScoped(db: Db, caller: Caller): Promise<Caller> {
  const session = await openIdsSession(db, caller.idsContextId!, caller.userId);
  if ('ended' in session) throw unauthorized(session.ended);
  if (!caller.partners.includes(session.bpNumber)) throw unauthorized(idsMessages.sessionEnded);
  return { ...caller, bpNumber: session.bpNumber, partners: [session.bpNumber] };
}

/** The embedded provider's sign-out check: the claim naming a token's grant and whether that grant is still active. */
export interface GrantCheck {
  claim: string;
  active: (grantId: string) => Promise<boolean>;
}

/**
 * Authenticates every /v1 route and enforces its declared roles. The grant, the caller's row and the IDS context
 * are read per token once and then kept by the caller cache while its LISTEN is connected (caller-cache.ts);
 * the route's role check runs on every request.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: { db: Db; verify: TokenVerifier; emailClaim: string; grant?: GrantCheck },
) {
  app.decorateRequest('caller', null);
  const routeAccess: RouteAccessEntry[] = [];
  app.decorate('routeAccess', routeAccess);
  const callers = new CallerCache(deps.db.$client, app.log);
  app.decorate('callerCache', callers);
  app.addHook('onReady', () => callers.start());
  // A route that changes its own caller (partner switch, IDS completion): the caller's next request may reach this
  // process before the notification does.
  app.addHook('onSend', async (request) => {
    if (request.caller && request.routeOptions.config?.changesCaller) callers.forget(request.caller.userId);
  });
  app.addHook('onClose', () => callers.close());

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/') || route.url === '/v1/openapi.json') return;
    const roles = route.config?.roles;
    if (!roles) throw new Error(`Route ${route.method} ${route.url} must declare config.roles`);
    const ids = route.config?.ids;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routeAccess.push({
          method,
          url: route.url,
          roles,
          ids: ids ? (ids === 'allowed' ? ids : 'guarded') : undefined,
        });
    }
  });

  const rejected = (request: FastifyRequest, error: unknown) => {
    if (isDatabaseUnavailable(error)) return error;
    const detail =
      error instanceof joseErrors.JWTExpired
        ? 'Das Zugriffstoken ist abgelaufen.'
        : error instanceof TokenRevoked
          ? 'Das Zugriffstoken gilt nicht mehr, weil Sie sich abgemeldet haben.'
          : 'Das Zugriffstoken ist ungültig.';
    request.log.info({ reason: (error as Error).message }, 'token rejected');
    return unauthorized(detail);
  };

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config?.roles;
    if (!access || access === 'public') return;
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(.+)$/i);
    if (!match) throw unauthorized('Es wurde kein Zugriffstoken übermittelt.');
    const token = match[1];
    let payload: JWTPayload;
    try {
      // Signature (cached per token) and time window: on every request.
      payload = await deps.verify(token);
    } catch (error) {
      throw rejected(request, error);
    }
    let caller: Caller | undefined = callers.get(token)?.caller;
    if (!caller) {
      const ticket = callers.ticket();
      const grantClaim = deps.grant ? payload[deps.grant.claim] : undefined;
      const grantId = typeof grantClaim === 'string' ? grantClaim : null;
      if (grantId && !(await deps.grant!.active(grantId))) throw rejected(request, new TokenRevoked());
      let found = await findCaller(deps.db, payload, deps.emailClaim);
      if (!found) throw forbidden('Für dieses Konto ist im Portal kein Benutzer angelegt.');
      if (found.idsContextId) found = await idsScoped(deps.db, found);
      callers.set(token, ticket, found, grantId, found.idsContextId ? Date.now() + IDS_RECHECK_MS : undefined);
      caller = found;
    }
    request.caller = caller;
    if (access !== 'authenticated' && !access.includes(caller.role)) {
      throw forbidden(
        request.routeOptions.config?.forbiddenDetail ?? 'Ihre Rolle darf diese Funktion nicht verwenden.',
      );
    }
    if (caller.idsContextId && !request.routeOptions.config?.ids) throw forbidden(idsMessages.notInIdsSession);
  });

  // A route's guard looks at the validated parameters and body, so it runs after validation. It runs for every
  // caller: the cart guards also keep a punchout session's cart away from the buyer's normal session.
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const scope = request.routeOptions.config?.ids;
    if (request.caller && typeof scope === 'function') await scope(request);
  });
}

/** The caller of an authenticated route (the onRequest hook guarantees it). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}

/** The caller's current business partner; routes that need one fail with 403 without it. */
export function currentPartnerOf(request: FastifyRequest): string {
  const caller = callerOf(request);
  if (!caller.bpNumber) throw forbidden('Ihrem Benutzer ist kein Geschäftspartner zugeordnet.');
  return caller.bpNumber;
}
