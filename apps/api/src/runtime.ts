import type pg from 'pg';
import type { AppConfig } from './config.ts';
import { createDb, createPool, type Db } from './db/pool.ts';
import { migrate } from './db/migrate.ts';
import { Jobs, type Logger } from './modules/jobs/jobs.ts';
import { MailService, createFileTransport, createSmtpTransport } from './modules/mail/mail.service.ts';
import { ensureFeatureSettings } from './modules/settings/settings.service.ts';
import { buildApp, type BuiltApp } from './app.ts';
import type { TokenVerifier } from './http/auth.ts';
import type { PriceStrategy } from './modules/catalogue/pricing/price-strategy.ts';
import path from 'node:path';
import { configureStorageQuota } from './lib/uploads/storage-quota.ts';
import { withSharedTransmissionKeys } from './modules/transmission/index.ts';
import { Lifecycle } from './lifecycle.ts';

/** How long a shutdown waits for open HTTP connections before it closes them. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface Runtime extends BuiltApp {
  /** The configuration the app runs with: the given one with the installation's shared keys filled in. */
  config: AppConfig;
  db: Db;
  pool: pg.Pool;
  jobs: Jobs;
  mail: MailService;
  /** The background work of this node (lifecycle.ts), started with the runtime and stopped by close(). */
  lifecycle: Lifecycle;
  /** The node is stopping: /ready answers 503 from now on (requests are still served). */
  drain: () => void;
  close: () => Promise<void>;
}

/**
 * Wires pool, migrations, jobs, mail and the HTTP app for a database URL and starts the node's background work
 * (used by main, tests and benchmarks; the OpenAPI generator builds the app alone and starts nothing).
 */
export async function createRuntime(
  givenConfig: AppConfig,
  databaseUrl: string,
  options: {
    logger?: boolean | object;
    verify?: TokenVerifier;
    migrate?: boolean;
    log?: Logger;
    prices?: PriceStrategy;
    /** Refuse at once code that holds a pool connection while it asks for another (tests, db/pool.ts). */
    strictConnectionUse?: boolean;
  } = {},
): Promise<Runtime> {
  configureStorageQuota(givenConfig);
  if (options.migrate !== false) {
    // Migrations may run long statements: on a connection of their own, without the API's statement timeout.
    const migrationPool = createPool(databaseUrl, 1);
    try {
      await migrate(migrationPool, (m) => options.log?.info(m));
    } finally {
      await migrationPool.end();
    }
  }
  const pool = createPool(
    databaseUrl,
    givenConfig.databasePoolMax,
    {},
    {
      statementTimeoutMs: givenConfig.databaseStatementTimeoutMs,
      idleInTransactionTimeoutMs: givenConfig.databaseIdleInTransactionTimeoutMs,
      strictConnectionUse: options.strictConnectionUse,
    },
  );
  const db = createDb(pool);
  // Keys every node must share (workflow secrets, AS2) come from PostgreSQL unless configured.
  const config = await withSharedTransmissionKeys(pool, givenConfig);
  await ensureFeatureSettings(db);
  const jobs = new Jobs(databaseUrl, options.log ?? console);
  const transport = config.smtpUrl
    ? createSmtpTransport(config.smtpUrl)
    : createFileTransport(path.join(config.dataDir, 'mail'));
  const mail = new MailService(pool, jobs, transport, config.mailFrom);
  const lifecycle = new Lifecycle(options.log ?? console);
  lifecycle.provide('pg-boss', jobs);
  lifecycle.provide('mail sweeper', { start: () => mail.startSweeper(), stop: () => mail.stopSweeper() });
  const built = await buildApp({
    lifecycle,
    config,
    db,
    pool,
    jobs,
    mail,
    prices: options.prices,
    verify: options.verify,
    logger: options.logger,
  });
  await lifecycle.start();
  return {
    ...built,
    config,
    db,
    pool,
    jobs,
    mail,
    lifecycle,
    drain: () => {
      lifecycle.draining = true;
    },
    close: async () => {
      lifecycle.draining = true;
      // Requests in flight get a short grace to finish; then connections still open (a client that keeps a
      // socket without sending a request) are cut, so a shutdown never waits for Node's 5-minute request timeout.
      const forceClose = setTimeout(() => built.app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      forceClose.unref();
      await built.app.close();
      clearTimeout(forceClose);
      await lifecycle.stop();
      // After the background work: no mail job or transmission uses the pooled SMTP connections any more.
      await mail.close();
      await pool.end();
    },
  };
}
