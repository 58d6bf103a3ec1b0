import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { ensureDatabase } from '../../src/db/bootstrap.ts';
import type { TokenVerifier } from '../../src/http/auth.ts';
import type { PriceStrategy } from '../../src/modules/catalogue/pricing/price-strategy.ts';
import { freePort } from './free-port.ts';
import { loginWithCodeFlow } from './oidc-login.ts';

export interface TestApp extends Runtime {
  baseUrl: string;
  config: AppConfig;
  databaseUrl: string;
  /** Access token of a demo user, obtained through the real login flow (cached per file). */
  token: (email: string) => Promise<string>;
  /** Calls the running API like the SPA does; JSON in and out. */
  request: (
    method: string,
    url: string,
    options?: { token?: string | null; as?: string; body?: unknown; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: any; headers: Headers; text: string }>;
}

/**
 * A running portal on its own fresh database (cloned from the seeded template) and a free port.
 * Call in beforeAll; close() in afterAll.
 */
/**
 * The workers' and search settings a test sets on its own process (`process.env.TRANSMISSION_WORKER = 'off'` before
 * startTestApp) reach the app; everything else is pinned above, so a developer's shell (OIDC_ISSUER, SMTP_URL…)
 * does not change the tests.
 */
const PROCESS_WIDE =
  /^(TRANSMISSION_|REPORT_|ORDRSP_|SEARCH_|AS2_)|^(PARTNER_STORAGE_QUOTA_MB|WORKFLOW_SECRET_KEY|PLATFORM_GLN)$/;
const processWideSettings = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => PROCESS_WIDE.test(name)));

export async function startTestApp(
  options: {
    env?: Record<string, string>;
    verify?: TokenVerifier;
    prices?: PriceStrategy;
    /** host:port the API reaches the database through (e.g. a relay the test can cut); `databaseUrl` stays direct */
    databaseHost?: string;
    /** Code holding a pool connection that asks for another one throws at once (db/pool.ts). */
    strictConnectionUse?: boolean;
  } = {},
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const dbName = `t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName, inject('templateDb'));
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
  const apiDatabaseUrl = options.databaseHost
    ? Object.assign(new URL(databaseUrl), { host: options.databaseHost }).toString()
    : databaseUrl;
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-test-data-'));
  const config = loadConfig({
    ...processWideSettings(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...options.env,
  });
  const runtime = await createRuntime(config, apiDatabaseUrl, {
    logger: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
    verify: options.verify,
    prices: options.prices,
    strictConnectionUse: options.strictConnectionUse,
    migrate: true,
    log: { info() {}, error() {}, warn() {} } as unknown as Console,
  });
  await runtime.app.listen({ port, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  // The provider's public URL is localhost; both resolve to the same listener.
  const tokens = new Map<string, Promise<string>>();
  const token = (email: string) => {
    if (!tokens.has(email))
      tokens.set(
        email,
        loginWithCodeFlow(config.publicUrl, email).then((t) => t.access_token),
      );
    return tokens.get(email)!;
  };
  const request: TestApp['request'] = async (method, url, opts = {}) => {
    const bearer = opts.as ? await token(opts.as) : opts.token;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData || typeof opts.body === 'string') body = opts.body as BodyInit;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed, headers: response.headers, text };
  };
  return {
    ...runtime,
    baseUrl,
    // With the installation's shared keys (workflow secrets, AS2) as the app has them.
    config: runtime.config,
    databaseUrl,
    token,
    request,
    close: async () => {
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(adminUrl, dbName);
    },
  };
}

/** Removes a test database (matters with TEST_DATABASE_URL, where the server outlives the run). */
export async function dropDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Waits until `check` returns a truthy value (background jobs, mails). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A second API process on the same database as `t` (same configuration and signing keys) on a port of its own:
 * what a second `npm start` behind the same proxy is. close() when done.
 */
export async function startSecondRuntime(
  t: Pick<TestApp, 'config' | 'databaseUrl'>,
  options: {
    /**
     * A DATA_DIR of its own, as a second machine has: it shares only the database (and the identity keys, which
     * nodes are given by configuration), so any file it serves came through the shared storage.
     */
    ownDataDir?: boolean;
    /** Settings of this node that differ (e.g. which workers it runs). */
    config?: Partial<AppConfig>;
  } = {},
): Promise<Runtime & { baseUrl: string }> {
  let config = { ...t.config, ...options.config };
  let dataDir: string | null = null;
  if (options.ownDataDir) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-test-node-'));
    // Identity keys kept in files (older installations) are given to every node; keys in the database need nothing.
    const identity = path.join(t.config.dataDir, 'identity');
    if (fs.existsSync(identity)) fs.cpSync(identity, path.join(dataDir, 'identity'), { recursive: true });
    config = { ...config, dataDir };
  }
  const runtime = await createRuntime(config, t.databaseUrl, {
    logger: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
    migrate: false,
    log: { info() {}, error() {}, warn() {} } as unknown as Console,
  });
  const port = await freePort();
  await runtime.app.listen({ port, host: '127.0.0.1' });
  return {
    ...runtime,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await runtime.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
