import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every setting comes from the environment; README lists them. */
export interface AppConfig {
  port: number;
  host: string;
  /** Public base URL of the portal (SPA, API and embedded identity provider). */
  publicUrl: string;
  dataDir: string;
  /** External Postgres; when unset the embedded one under dataDir is used. */
  databaseUrl: string | undefined;
  /** External OIDC issuer; when unset the embedded provider at /auth is mounted. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  oidcAudience: string;
  /** Scopes the SPA requests. */
  oidcScope: string;
  /** Token claim that carries the user's e-mail (used to bind a new subject to a known user). */
  oidcEmailClaim: string;
  smtpUrl: string | undefined;
  supportMailbox: string;
  mailFrom: string;
  logLevel: string;
  /** Directory of the built SPA; served when present. */
  webDistDir: string;
  seedDemo: boolean;
  /**
   * Addresses (or CIDR ranges, comma-separated; 'loopback' allowed) of the reverse proxy whose
   * X-Forwarded-* headers are believed. Unset: no proxy headers are trusted.
   */
  trustProxy: string | undefined;
  /** 'development' enables the Vite dev server's redirect URIs at the embedded provider. */
  nodeEnv: string;
  /**
   * Origins outside the portal whose videos, frames and scripts the pages may load (CSP_EXTERNAL_ORIGINS,
   * space- or comma-separated): where a manufacturer hosts its introductory video or the video-help widget.
   */
  cspExternalOrigins: string[];
  /** Connections of the API's database pool (DATABASE_POOL_MAX, default 20). */
  databasePoolMax: number;
  /** statement_timeout of the API's connections in ms (DATABASE_STATEMENT_TIMEOUT_MS, default 60000; 0: none). */
  databaseStatementTimeoutMs: number;
  /**
   * idle_in_transaction_session_timeout of the API's connections in ms (DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
   * default 30000; 0: none).
   */
  databaseIdleInTransactionTimeoutMs: number;
  /** Requests one user may have in flight on one API process (MAX_REQUESTS_IN_FLIGHT_PER_USER, default 8); more: 429. */
  maxRequestsInFlightPerUser: number;
}

/** A whole number from the environment, or the default when unset or not a number ≥ min. */
function wholeNumber(value: string | undefined, fallback: number, min = 0): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isInteger(n) && n >= min ? n : fallback;
}

/** Only real http(s) origins reach the Content-Security-Policy; anything else is ignored. */
function originsOf(list: string | undefined): string[] {
  return (list ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .flatMap((entry) => {
      try {
        const url = new URL(entry);
        return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [];
      } catch {
        return [];
      }
    });
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    oidcIssuer: env.OIDC_ISSUER || undefined,
    oidcClientId: env.OIDC_CLIENT_ID ?? 'shk-portal-web',
    oidcAudience: env.OIDC_AUDIENCE ?? 'urn:shk-portal:api',
    oidcScope: env.OIDC_SCOPE ?? 'openid profile email',
    oidcEmailClaim: env.OIDC_EMAIL_CLAIM ?? 'email',
    smtpUrl: env.SMTP_URL || undefined,
    supportMailbox: env.SUPPORT_MAILBOX ?? 'support@shk-bestellportal.example',
    mailFrom: env.MAIL_FROM ?? 'SHK-Bestellportal <noreply@shk-bestellportal.example>',
    logLevel: env.LOG_LEVEL ?? 'info',
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    seedDemo: env.SEED_DEMO !== 'false',
    trustProxy: env.TRUST_PROXY?.trim() || undefined,
    nodeEnv: env.NODE_ENV ?? 'production',
    cspExternalOrigins: originsOf(env.CSP_EXTERNAL_ORIGINS),
    databasePoolMax: wholeNumber(env.DATABASE_POOL_MAX, 20, 1),
    databaseStatementTimeoutMs: wholeNumber(env.DATABASE_STATEMENT_TIMEOUT_MS, 60_000),
    databaseIdleInTransactionTimeoutMs: wholeNumber(env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, 30_000),
    maxRequestsInFlightPerUser: wholeNumber(env.MAX_REQUESTS_IN_FLIGHT_PER_USER, 8, 1),
  };
}
