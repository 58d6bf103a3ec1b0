import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import middie from '@fastify/middie';
import formbody from '@fastify/formbody';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { App, AppDeps } from '../../http/types.ts';
import { createPostgresAdapter } from './adapter.ts';
import { HSTS } from '../../http/security-headers.ts';
import { findAccountById, findAccountByLogin, isGrantRevoked } from './identity.repo.ts';
import { loadOrCreateKeys, publicJwks, readKeys } from './keys.ts';
import { errorPage, loggedOutPage, loginPage, logoutPage } from './pages.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { LoginLocked, LoginThrottle, loginNameOf } from './login-throttle.ts';
import { PasswordService } from './passwords.service.ts';
import { forgotLinkOf, passwordPagesRoutes } from './password-pages.routes.ts';

export interface EmbeddedIdentity {
  issuer: string;
  clientId: string;
  publicJwks: () => { keys: import('jose').JWK[] };
  /** Reads the keys again from the database (a token signed with a key another node rotated in). */
  reloadJwks: () => Promise<{ keys: import('jose').JWK[] }>;
  provider: Provider;
  /** False once the grant behind an access token is gone (logout, revocation): the token is dead. */
  grantActive: (grantId: string) => Promise<boolean>;
}

/** Short-lived access tokens; the SPA renews them silently through the provider session. */
export const ACCESS_TOKEN_TTL = 5 * 60;

/** Claim of the embedded provider's access tokens that names their grant. */
export const GRANT_CLAIM = 'gid';

export const WRONG_CREDENTIALS = 'E-Mail-Adresse oder Passwort ist falsch.';
/** Path of the SPA's sign-in callback (the SPA handles it). */
export const SPA_CALLBACK_PATH = '/auth-callback';

/**
 * Mounts the embedded OpenID Connect provider at /auth: authorization code + PKCE for the SPA as a
 * public client, JWT access tokens for the API audience, a German login page, real end-session.
 */
export async function mountEmbeddedIdentityProvider(app: App, deps: AppDeps): Promise<EmbeddedIdentity> {
  const { config, pool } = deps;
  const issuer = `${config.publicUrl}/auth`;
  const keys = await loadOrCreateKeys(pool, config.dataDir);
  const development = config.nodeEnv === 'development';

  // The SPA calls the token endpoint from the portal's own origin (and the Vite dev server in development); nobody else.
  const corsAllowed = (origin: string) =>
    origin === new URL(config.publicUrl).origin || (development && origin === 'http://localhost:5173');
  const configuration = providerConfiguration(app, deps, keys, corsAllowed);

  const provider = new Provider(issuer, configuration);
  // The provider builds every advertised URL from the request. It sees PUBLIC_URL's host and protocol
  // only (set below), never what a client put in Host or X-Forwarded-*.
  provider.proxy = true;
  const publicOrigin = new URL(config.publicUrl);
  provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'oidc server error'));

  await app.register(formbody);
  await app.register(middie, { hook: 'onRequest' });
  const callback = provider.callback();
  // Everything under /auth is the provider's, except the login interaction rendered below.
  app.use('/auth', (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    // The provider's answers bypass Fastify's hooks: HSTS here (the interaction pages get it there, too).
    if (publicOrigin.protocol === 'https:') res.setHeader('strict-transport-security', HSTS);
    // The login interaction and the password pages are Fastify routes (below, password-pages.routes.ts).
    if (req.url?.startsWith('/interaction/') || req.url?.startsWith('/passwort')) return next();
    // The provider answers every preflight with the asking origin; the real request of a foreign origin gets no
    // CORS headers (clientBasedCORS). The preflight answers the same: no CORS headers, so the browser stops there.
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS' && origin && !corsAllowed(origin)) {
      res.statusCode = 204;
      res.end();
      return;
    }
    req.headers.host = publicOrigin.host;
    req.headers['x-forwarded-host'] = publicOrigin.host;
    req.headers['x-forwarded-proto'] = publicOrigin.protocol.replace(':', '');
    delete req.headers['x-forwarded-for'];
    delete req.headers.forwarded;
    return callback(req, res);
  });

  const Params = z.object({ uid: z.string().min(1).max(100) });

  app.get('/auth/interaction/:uid', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
    if (!details || details.uid !== request.params.uid) {
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(errorPage('Die Anmeldung ist abgelaufen. Bitte starten Sie sie erneut.'));
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(loginPage({ action: `/auth/interaction/${details.uid}/login`, forgot: forgotLinkOf(details.uid) }));
  });

  // Failed sign-ins per account and address and per address, in PostgreSQL (login-throttle.ts).
  const throttle = new LoginThrottle(pool, 'login');
  // Unknown accounts cost the same scrypt work as known ones: no enumeration by response time.
  const dummyHash = hashPassword(randomUUID());

  app.post(
    '/auth/interaction/:uid/login',
    {
      preHandler: async (request) => throttle.check(loginNameOf(request), request.ip),
      errorHandler: (error, request, reply) => {
        if (!(error instanceof LoginLocked)) throw error;
        request.log.warn({ ip: request.ip }, 'login delayed');
        const body = request.body as { login?: string } | undefined;
        return reply
          .status(429)
          .header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            loginPage({
              action: `/auth/interaction/${encodeURIComponent((request.params as { uid: string }).uid)}/login`,
              login: typeof body?.login === 'string' ? body.login : '',
              error: error.message,
              forgot: forgotLinkOf((request.params as { uid: string }).uid),
            }),
          );
      },
      schema: {
        hide: true,
        params: Params,
        body: z.object({ login: z.string().max(254).default(''), password: z.string().max(500).default('') }),
      },
    },
    async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
      if (!details || details.uid !== request.params.uid) {
        return reply
          .status(400)
          .type('text/html; charset=utf-8')
          .send(errorPage('Die Anmeldung ist abgelaufen. Bitte starten Sie sie erneut.'));
      }
      const { login, password } = request.body;
      const row = await findAccountByLogin(pool, login.trim());
      const valid = await verifyPassword(password, row?.password_hash ?? (await dummyHash));
      if (!row || !row.password_hash || !valid) {
        request.log.info({ login }, 'login failed');
        await throttle.failed(login, request.ip);
        return reply
          .status(401)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            loginPage({
              action: `/auth/interaction/${details.uid}/login`,
              login,
              error: WRONG_CREDENTIALS,
              forgot: forgotLinkOf(details.uid),
            }),
          );
      }
      await throttle.succeeded(login, request.ip);
      reply.hijack();
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        { login: { accountId: row.id, remember: true } },
        { mergeWithLastSubmission: false },
      );
    },
  );

  // "Passwort vergessen?" and the set-password links of resets and invitations.
  const passwords = new PasswordService(deps, (grantId) => app.callerCache?.forgetGrant(grantId));
  passwords.registerJobs();
  await passwordPagesRoutes(app, passwords);

  // adapter.ts records ended grants (logout, revocation) in revoked_grants.
  const grantActive = async (grantId: string) => !(await isGrantRevoked(pool, grantId));
  let current = keys;
  const reloadJwks = async () => {
    current = (await readKeys(pool)) ?? current;
    return publicJwks(current);
  };
  return {
    issuer,
    clientId: config.oidcClientId,
    publicJwks: () => publicJwks(current),
    reloadJwks,
    provider,
    grantActive,
  };
}

/** The OIDC provider's settings: the SPA as its one public client, JWT access tokens for the API, German pages. */
function providerConfiguration(
  app: App,
  { config, pool }: AppDeps,
  keys: Awaited<ReturnType<typeof loadOrCreateKeys>>,
  corsAllowed: (origin: string) => boolean,
): Configuration {
  const audience = config.oidcAudience;
  const apiScope = 'api';
  const development = config.nodeEnv === 'development';
  const findAccountRow = (id: string) => findAccountById(pool, id);
  return {
    // A sign-out ends the grant's tokens in this process's caller cache before the answer (http/caller-cache.ts).
    adapter: createPostgresAdapter(pool, (grantId) =>
      app.callerCache?.forgetGrant(grantId),
    ) as unknown as Configuration['adapter'],
    clients: [
      {
        client_id: config.oidcClientId,
        client_name: 'SHK-Bestellportal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // The Vite dev server's addresses only while developing; in production only PUBLIC_URL.
        redirect_uris: [
          `${config.publicUrl}${SPA_CALLBACK_PATH}`,
          ...(development ? [`http://localhost:5173${SPA_CALLBACK_PATH}`] : []),
        ],
        post_logout_redirect_uris: [`${config.publicUrl}/`, ...(development ? ['http://localhost:5173/'] : [])],
      },
    ],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, sameSite: 'lax' },
      short: { signed: true, sameSite: 'lax' },
    },
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    findAccount: async (_ctx, id) => {
      const row = await findAccountRow(id);
      if (!row) return undefined;
      return {
        accountId: row.id,
        claims: () => ({
          sub: row.id,
          email: row.email,
          email_verified: true,
          name: `${row.first_name} ${row.last_name}`.trim(),
          given_name: row.first_name,
          family_name: row.last_name,
        }),
      };
    },
    // The portal's own SPA is first party: grant its scopes without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const clientId = ctx.oidc.client!.clientId;
      const session = ctx.oidc.session!;
      const existingId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(clientId);
      if (existingId) {
        const existing = await ctx.oidc.provider.Grant.find(existingId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
      grant.addOIDCScope('openid offline_access profile email');
      grant.addOIDCClaims(['email', 'name', 'given_name', 'family_name']);
      grant.addResourceScope(audience, apiScope);
      await grant.save();
      return grant;
    },
    // The SPA calls the token endpoint from the portal's own origin (a browser sends Origin on that
    // POST); nobody else may. oidc-provider 8's default refuses every origin.
    clientBasedCORS: (_ctx, origin) => corsAllowed(origin),
    // Access tokens are JWTs nobody stores; naming their grant lets the API refuse them after logout.
    extraTokenClaims: async (_ctx, token) =>
      token.kind === 'AccessToken' && token.grantId ? { [GRANT_CLAIM]: token.grantId } : undefined,
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new Error('unknown resource');
          return {
            scope: apiScope,
            audience,
            accessTokenTTL: ACCESS_TOKEN_TTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage();
        },
      },
      revocation: { enabled: true },
    },
    // Refresh tokens only for the SPA's silent renewal; rotate on use.
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL,
      RefreshToken: 14 * 24 * 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
    },
    interactions: { url: (_ctx, interaction) => `/auth/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error), out.error_description as string | undefined);
    },
  };
}
