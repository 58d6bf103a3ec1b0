import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Every setting of the API comes from the environment, read and checked here only (lint refuses `process.env`
 * elsewhere in apps/api/src). README's configuration table lists the same variables as `configSchema` (a test
 * compares them).
 */
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
  /** Embedded PostgreSQL's port (EMBEDDED_PG_PORT); unset: derived from DATA_DIR. */
  embeddedPgPort: number | undefined;
  /** Storage per business partner for uploaded files, in MB. */
  partnerStorageQuotaMb: number;
  /** Where the portal keeps files (STORAGE_BACKEND): DATA_DIR (one machine) or PostgreSQL (several nodes). */
  storageBackend: 'local' | 'postgres';
  /** Products of the demo catalogue loaded on the first start. */
  demoCatalogueProducts: number | undefined;
  /**
   * Product search: the in-process index (default) or SQL per request; `cache` is the SQL engine's facet cache;
   * `warmUp`: synthetic searches on a large index before it answers (search/index/warm-up.ts).
   */
  search: { engine: 'index' | 'sql'; cache: boolean; warmUp: boolean };
  /** Order transmission: whether this process runs the outbox worker, and the worker's tuning. */
  transmission: TransmissionSettings;
  /**
   * On SIGTERM/SIGINT /ready answers 503 this long before the node stops taking requests (SHUTDOWN_READY_DELAY_MS),
   * so a load balancer checking /ready sends it nothing new.
   */
  shutdownReadyDelayMs: number;
  /**
   * Key of the workflow secrets (WORKFLOW_SECRET_KEY); unset: generated once per installation and kept in PostgreSQL
   * (filled in at start by the runtime, transmission/shared-keys.ts).
   */
  workflowSecretKey: string | undefined;
  /** The platform's AS2 identity; key and certificate files unset: generated once and kept in PostgreSQL. */
  as2: {
    identifier: string;
    keyFile: string | undefined;
    certFile: string | undefined;
    /** Key and certificate shared by every node (not an environment setting: filled in at start from PostgreSQL). */
    shared?: { keyPem: string; certPem: string };
    /** Where partners post asynchronous MDNs (AS2_MDN_URL); unset: PUBLIC_URL/inbound/as2/mdn. */
    mdnUrl: string | undefined;
    /** How long an attempt waits for an asynchronous MDN before the retry looks again. */
    asyncMdnWaitMs: number;
    /** Timeout of an AS2 POST and its synchronous MDN. */
    timeoutMs: number;
    /** Whether this process checks certificate expiry (AS2_CERT_CHECK=off: another process does). */
    certificateCheck: boolean;
    certificateCheckEveryMs: number;
  };
  /** SFTP/FTP pick-up of ORDRSP files from suppliers' servers. */
  ordrspPickup: { enabled: boolean; folder: string; everyMs: number };
  /** Report generation: whether this process generates reports, its lease, sweep and thread heap. */
  reports: { worker: boolean; leaseMs: number; sweepEveryMs: number; threadHeapMb: number };
  /**
   * Targets of supplier transmission ('Verbindung testen' and deliveries) that may be internal
   * (TRANSMISSION_ALLOWED_HOSTS, comma- or space-separated): host names, IP addresses or CIDR ranges, each
   * optionally with ':port' (IPv6 in brackets). Loopback, private and link-local addresses and the database's
   * port are refused unless an entry names them (docs/transmission.md).
   */
  transmissionAllowedHosts: string[];
  /** Supplier catalogue imports: worker, crash lease, disk limits and the fetcher of media named by URL. */
  catalogueImport: CatalogueImportConfig;
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

export interface TransmissionSettings {
  /** false: this process transmits no supplier orders (TRANSMISSION_WORKER=off; another process does). */
  worker: boolean;
  /** Orders transmitted at once by this process. */
  concurrency: number;
  /** A claimed row whose worker neither finished nor failed it within this time is claimed again. Keep it above the channel timeouts. */
  leaseMs: number;
  /** Attempts before SendingFailed (a resend starts a fresh budget). */
  maxAttempts: number;
  /** Backoff: retryBaseMs × 2^(attempt−1), at most retryMaxMs, ±20 % jitter. */
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  sweepEveryMs: number;
  /** Sender GLN of EDIFACT orders. */
  platformGln: string;
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

// An empty variable (`PORT=`) counts as unset, as a shell script that exports an empty value means.
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

const text = () => optional(z.string().trim());

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `muss eine ganze Zahl ab ${min} sein`
      : `muss eine ganze Zahl von ${min} bis ${max} sein`;
  return optional(
    z
      .string()
      .trim()
      .regex(/^\d+$/, message)
      .transform(Number)
      .refine((n) => n >= min && n <= max, message),
  );
}

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  optional(z.enum(values, { error: `muss ${values.map((v) => `„${v}“`).join(' oder ')} sein` }));

const url = (protocols: readonly string[]) =>
  optional(
    z
      .string()
      .trim()
      .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
        message: `muss eine URL sein (${protocols.map((p) => p.replace(/:$/, '')).join(', ')})`,
      }),
  );

const workflowKey = optional(
  z
    .string()
    .trim()
    .refine((value) => /^[0-9a-f]{64}$/i.test(value) || Buffer.from(value, 'base64').length === 32, {
      message: 'muss 64 Hex-Zeichen oder Base64 von 32 Bytes sein',
    }),
);

const onOff = () => oneOf(['on', 'off'] as const);

/** The environment variables of the API, each checked; README's configuration table lists exactly these. */
export const configSchema = z.object({
  PORT: integer(0, 65_535),
  HOST: text(),
  PUBLIC_URL: url(['http:', 'https:']),
  DATA_DIR: text(),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_POOL_MAX: integer(1),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(0),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(0),
  MAX_REQUESTS_IN_FLIGHT_PER_USER: integer(1),
  EMBEDDED_PG_PORT: integer(1, 65_535),
  OIDC_ISSUER: url(['http:', 'https:']),
  OIDC_CLIENT_ID: text(),
  OIDC_AUDIENCE: text(),
  OIDC_SCOPE: text(),
  OIDC_EMAIL_CLAIM: text(),
  SMTP_URL: url(['smtp:', 'smtps:']),
  WORKFLOW_SECRET_KEY: workflowKey,
  PLATFORM_GLN: optional(
    z
      .string()
      .trim()
      .regex(/^\d{13}$/, 'muss eine GLN aus 13 Ziffern sein'),
  ),
  AS2_IDENTIFIER: text(),
  AS2_KEY_FILE: text(),
  AS2_CERT_FILE: text(),
  AS2_MDN_URL: url(['http:', 'https:']),
  AS2_ASYNC_MDN_WAIT_MS: integer(1),
  AS2_TIMEOUT_MS: integer(1),
  AS2_CERT_CHECK: onOff(),
  AS2_CERT_CHECK_MS: integer(1),
  TRANSMISSION_WORKER: onOff(),
  TRANSMISSION_CONCURRENCY: integer(1),
  TRANSMISSION_LEASE_MS: integer(1),
  TRANSMISSION_MAX_ATTEMPTS: integer(1),
  TRANSMISSION_RETRY_BASE_MS: integer(1),
  TRANSMISSION_RETRY_MAX_MS: integer(1),
  TRANSMISSION_POLL_MS: integer(1),
  TRANSMISSION_SWEEP_MS: integer(1),
  TRANSMISSION_ALLOWED_HOSTS: text(),
  ORDRSP_PICKUP: onOff(),
  ORDRSP_PICKUP_MS: integer(1),
  ORDRSP_PICKUP_FOLDER: text(),
  REPORT_WORKER: onOff(),
  REPORT_LEASE_MS: integer(1),
  REPORT_SWEEP_MS: integer(1),
  REPORT_WORKER_HEAP_MB: integer(1),
  SUPPORT_MAILBOX: text(),
  MAIL_FROM: text(),
  SHUTDOWN_READY_DELAY_MS: integer(0),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  WEB_DIST_DIR: text(),
  SEED_DEMO: oneOf(['true', 'false'] as const),
  DEMO_CATALOGUE_PRODUCTS: integer(1),
  TRUST_PROXY: text(),
  NODE_ENV: text(),
  CSP_EXTERNAL_ORIGINS: text(),
  PARTNER_STORAGE_QUOTA_MB: integer(1),
  STORAGE_BACKEND: oneOf(['local', 'postgres'] as const),
  SEARCH_ENGINE: oneOf(['index', 'sql'] as const),
  SEARCH_CACHE: onOff(),
  SEARCH_WARM_UP: onOff(),
  CATALOGUE_IMPORT_WORKER: onOff(),
  CATALOGUE_IMPORT_LEASE_MS: integer(1),
  CATALOGUE_IMPORT_SWEEP_MS: integer(1),
  CATALOGUE_IMPORT_MAX_ATTEMPTS: integer(1),
  CATALOGUE_IMPORT_BATCH_SIZE: integer(1),
  CATALOGUE_IMPORT_UNZIP_MAX_RATIO: integer(1),
  CATALOGUE_IMPORT_UNZIP_MAX_MB: integer(1),
  MEDIA_FETCH_MAX_MB: integer(1),
  MEDIA_FETCH_TIMEOUT_MS: integer(1),
  MEDIA_FETCH_POLL_MS: integer(1),
  MEDIA_FETCH_ALLOW: text(),
});

/** A variable with a value the API cannot work with: the start stops with this message. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Ungültige Konfiguration – der Start wird abgebrochen:\n${problems.map((p) => `  ${p.variable} ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

function parseEnvironment(env: NodeJS.ProcessEnv) {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      return { variable, message: `${issue.message} (angegeben: „${env[variable]}“).` };
    }),
  );
}

/** The process's configuration for an entry point: a bad value prints the German message and ends the process. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
}

/** The process's configuration, and overrides on top of it (tools that pin a few settings). */
export const loadConfigWith = (overrides: Record<string, string>) => loadConfig({ ...process.env, ...overrides });

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const e = parseEnvironment(env);
  const port = e.PORT ?? 3000;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl: e.DATABASE_URL,
    oidcIssuer: e.OIDC_ISSUER,
    oidcClientId: e.OIDC_CLIENT_ID ?? 'shk-portal-web',
    oidcAudience: e.OIDC_AUDIENCE ?? 'urn:shk-portal:api',
    oidcScope: e.OIDC_SCOPE ?? 'openid profile email',
    oidcEmailClaim: e.OIDC_EMAIL_CLAIM ?? 'email',
    smtpUrl: e.SMTP_URL,
    supportMailbox: e.SUPPORT_MAILBOX ?? 'support@shk-bestellportal.example',
    mailFrom: e.MAIL_FROM ?? 'SHK-Bestellportal <noreply@shk-bestellportal.example>',
    logLevel: e.LOG_LEVEL ?? 'info',
    shutdownReadyDelayMs: e.SHUTDOWN_READY_DELAY_MS ?? 2_000,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    seedDemo: e.SEED_DEMO !== 'false',
    trustProxy: e.TRUST_PROXY,
    nodeEnv: e.NODE_ENV ?? 'production',
    cspExternalOrigins: originsOf(e.CSP_EXTERNAL_ORIGINS),
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    partnerStorageQuotaMb: e.PARTNER_STORAGE_QUOTA_MB ?? 500,
    storageBackend: e.STORAGE_BACKEND ?? 'local',
    demoCatalogueProducts: e.DEMO_CATALOGUE_PRODUCTS,
    search: { engine: e.SEARCH_ENGINE ?? 'index', cache: e.SEARCH_CACHE !== 'off', warmUp: e.SEARCH_WARM_UP !== 'off' },
    transmission: {
      worker: e.TRANSMISSION_WORKER !== 'off',
      concurrency: e.TRANSMISSION_CONCURRENCY ?? 16,
      leaseMs: e.TRANSMISSION_LEASE_MS ?? 120_000,
      maxAttempts: e.TRANSMISSION_MAX_ATTEMPTS ?? 6,
      retryBaseMs: e.TRANSMISSION_RETRY_BASE_MS ?? 5_000,
      retryMaxMs: e.TRANSMISSION_RETRY_MAX_MS ?? 15 * 60_000,
      pollMs: e.TRANSMISSION_POLL_MS ?? 200,
      sweepEveryMs: e.TRANSMISSION_SWEEP_MS ?? 30_000,
      platformGln: e.PLATFORM_GLN ?? '4399902421007',
    },
    workflowSecretKey: e.WORKFLOW_SECRET_KEY,
    as2: {
      identifier: e.AS2_IDENTIFIER ?? 'SHKPORTAL',
      keyFile: e.AS2_KEY_FILE,
      certFile: e.AS2_CERT_FILE,
      mdnUrl: e.AS2_MDN_URL?.replace(/\/$/, ''),
      asyncMdnWaitMs: e.AS2_ASYNC_MDN_WAIT_MS ?? 60_000,
      timeoutMs: e.AS2_TIMEOUT_MS ?? 30_000,
      certificateCheck: e.AS2_CERT_CHECK !== 'off',
      certificateCheckEveryMs: e.AS2_CERT_CHECK_MS ?? 6 * 3_600_000,
    },
    ordrspPickup: {
      enabled: e.ORDRSP_PICKUP !== 'off',
      folder: (e.ORDRSP_PICKUP_FOLDER ?? '/ordrsp').replace(/\/+$/, '') || '/ordrsp',
      everyMs: e.ORDRSP_PICKUP_MS ?? 60_000,
    },
    reports: {
      worker: e.REPORT_WORKER !== 'off',
      leaseMs: e.REPORT_LEASE_MS ?? 60_000,
      sweepEveryMs: e.REPORT_SWEEP_MS ?? 15_000,
      threadHeapMb: e.REPORT_WORKER_HEAP_MB ?? 48,
    },
    transmissionAllowedHosts: (e.TRANSMISSION_ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
    catalogueImport: {
      worker: e.CATALOGUE_IMPORT_WORKER !== 'off',
      leaseMs: e.CATALOGUE_IMPORT_LEASE_MS ?? 30_000,
      sweepMs: e.CATALOGUE_IMPORT_SWEEP_MS ?? 15_000,
      maxAttempts: e.CATALOGUE_IMPORT_MAX_ATTEMPTS ?? 5,
      batchSize: e.CATALOGUE_IMPORT_BATCH_SIZE ?? 50_000,
      unzipMaxRatio: e.CATALOGUE_IMPORT_UNZIP_MAX_RATIO ?? 100,
      unzipMaxBytes: (e.CATALOGUE_IMPORT_UNZIP_MAX_MB ?? 20 * 1024) * 1024 * 1024,
      mediaMaxBytes: (e.MEDIA_FETCH_MAX_MB ?? 20) * 1024 * 1024,
      mediaTimeoutMs: e.MEDIA_FETCH_TIMEOUT_MS ?? 15_000,
      mediaPollMs: e.MEDIA_FETCH_POLL_MS ?? 2_000,
      mediaAllow: (e.MEDIA_FETCH_ALLOW ?? '').split(/[\s,]+/).filter(Boolean),
    },
    databasePoolMax: e.DATABASE_POOL_MAX ?? 20,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS ?? 60_000,
    databaseIdleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS ?? 30_000,
    maxRequestsInFlightPerUser: e.MAX_REQUESTS_IN_FLIGHT_PER_USER ?? 8,
  };
}
