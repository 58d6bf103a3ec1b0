import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createRuntime } from '../../src/runtime.ts';
import { ensureDatabase } from '../../src/db/bootstrap.ts';
import { freePort } from '../support/free-port.ts';
import { loginWithCodeFlow } from '../support/oidc-login.ts';
import { dropDatabase, type TestApp } from '../support/test-app.ts';

/**
 * Like startTestApp, with control over what the standard helper fixes: the database host the API
 * connects to (a relay the test can cut) and the environment (PUBLIC_URL, TRUST_PROXY, NODE_ENV …).
 */
export async function startHardeningApp(
  options: { databaseHost?: string; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const dbName = `h_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, dbName, inject('templateDb'));
  const direct = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` });
  const databaseUrl = options.databaseHost
    ? Object.assign(new URL(direct.toString()), { host: options.databaseHost }).toString()
    : direct.toString();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-hardening-'));
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...options.env,
  });
  const runtime = await createRuntime(config, databaseUrl, {
    logger: { level: process.env.TEST_LOG_LEVEL ?? 'silent' },
    migrate: true,
    log: { info() {}, error() {}, warn() {} } as unknown as Console,
  });
  await runtime.app.listen({ port, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
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
    config,
    databaseUrl: direct.toString(),
    token,
    request,
    close: async () => {
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(adminUrl, dbName);
    },
  };
}
