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
  /** Supplier catalogue imports: worker, crash lease, disk limits and the fetcher of media named by URL. */
  catalogueImport: CatalogueImportConfig;
}

export interface CatalogueImportConfig {
  /** CATALOGUE_IMPORT_WORKER=off: this process runs no imports and no import sweeper (another process does). */
  worker: boolean;
  /** Lease of a running import, renewed every third of it: a process that dies is noticed after this long. */
  leaseMs: number;
  /** How often imports of a dead process are looked for (also at start). */
  sweepMs: number;
  /** Attempts (crashes included) after which an import ends Failed. */
  maxAttempts: number;
  /** Articles per merged batch (the resume point moves per batch). */
  batchSize: number;
  /** A zip may unpack to at most this many times its own size … */
  unzipMaxRatio: number;
  /** … and at most this many bytes. */
  unzipMaxBytes: number;
  /** Media named by URL: largest file fetched, time per fetch, how often the queue is polled. */
  mediaMaxBytes: number;
  mediaTimeoutMs: number;
  mediaPollMs: number;
  /**
   * Addresses or CIDR ranges the media fetcher may reach although they are loopback, private or link-local
   * (MEDIA_FETCH_ALLOW, comma-separated): for a test's server on loopback or a supplier's host in the
   * operator's own network. Empty in production.
   */
  mediaAllow: string[];
}

/** A positive number from the environment, else the default. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}

export function catalogueImportConfig(env: NodeJS.ProcessEnv): CatalogueImportConfig {
  return {
    worker: env.CATALOGUE_IMPORT_WORKER !== 'off',
    leaseMs: positive(env.CATALOGUE_IMPORT_LEASE_MS, 30_000),
    sweepMs: positive(env.CATALOGUE_IMPORT_SWEEP_MS, 15_000),
    maxAttempts: Math.floor(positive(env.CATALOGUE_IMPORT_MAX_ATTEMPTS, 5)),
    batchSize: Math.floor(positive(env.CATALOGUE_IMPORT_BATCH_SIZE, 50_000)),
    unzipMaxRatio: positive(env.CATALOGUE_IMPORT_UNZIP_MAX_RATIO, 100),
    unzipMaxBytes: positive(env.CATALOGUE_IMPORT_UNZIP_MAX_MB, 20 * 1024) * 1024 * 1024,
    mediaMaxBytes: positive(env.MEDIA_FETCH_MAX_MB, 20) * 1024 * 1024,
    mediaTimeoutMs: positive(env.MEDIA_FETCH_TIMEOUT_MS, 15_000),
    mediaPollMs: positive(env.MEDIA_FETCH_POLL_MS, 2_000),
    mediaAllow: (env.MEDIA_FETCH_ALLOW ?? '')
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  };
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
    catalogueImport: catalogueImportConfig(env),
  };
}
