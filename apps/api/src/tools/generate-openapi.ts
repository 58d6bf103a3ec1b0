/**
 * Writes the OpenAPI document to apps/web/src/api/openapi.json without a database or server:
 * the routes are registered on an app whose dependencies are never called.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, repoRoot } from '../config.ts';
import { buildApp } from '../app.ts';
import type { AppDeps } from '../http/types.ts';

const config = loadConfig({
  ...process.env,
  OIDC_ISSUER: 'http://issuer.invalid',
  WEB_DIST_DIR: '/nonexistent',
  LOG_LEVEL: 'silent',
});
const unused = new Proxy(
  {},
  {
    get: () => {
      throw new Error('not available while generating the OpenAPI document');
    },
  },
);
// db.$client: the caller cache keeps the pool from the start (its listener fails quietly and retries later).
const deps = {
  config,
  db: { $client: unused },
  pool: unused,
  jobs: { register() {} },
  mail: unused,
} as unknown as AppDeps;
const { app } = await buildApp({ ...deps, logger: false });
await app.ready();
const out = path.join(repoRoot, 'apps/web/src/api/openapi.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(app.swagger(), null, 2) + '\n');
await app.close();
console.log(`OpenAPI document written to ${path.relative(process.cwd(), out)}`);
