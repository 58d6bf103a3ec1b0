import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { ensureDatabase } from '../src/db/bootstrap.ts';
import { createPool, createDb } from '../src/db/pool.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureFeatureSettings } from '../src/modules/settings/settings.service.ts';
import { seedDemoWorldIfEmpty } from '../src/seed/demo-world.ts';
import { Jobs } from '../src/modules/jobs/jobs.ts';
import { freePort } from './support/free-port.ts';
import { seedDemoCatalogueIfEmpty, TEST_CATALOGUE_PRODUCTS } from '../src/seed/catalogue/demo.ts';

export const TEMPLATE_DB = 'shk_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

/**
 * One PostgreSQL for the whole run (or TEST_DATABASE_URL): a template database is migrated and
 * seeded with the demo world once; every test file clones it (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let dir: string | undefined;
  if (!adminUrl) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-test-pg-'));
    fs.chmodSync(dir, 0o755);
    const server = await startEmbeddedPostgres(path.join(dir, 'data'), await freePort(), { durable: false });
    adminUrl = server.url('postgres');
    stop = server.stop;
  }
  const admin = new URL(adminUrl);
  admin.pathname = '/postgres';
  const client = createPool(admin.toString(), 2);
  await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await client.end();
  await ensureDatabase(admin.toString(), TEMPLATE_DB);
  const templateUrl = new URL(admin.toString());
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  const pool = createPool(templateUrl.toString(), 4);
  const db = createDb(pool);
  await migrate(pool);
  await ensureFeatureSettings(db);
  await seedDemoWorldIfEmpty(db);
  await extendTemplate(db);
  // Create pg-boss's schema once so every cloned database starts with it.
  const jobs = new Jobs(templateUrl.toString());
  await jobs.start();
  await jobs.stop();
  await pool.end();

  project.provide('pgAdminUrl', admin.toString());
  project.provide('templateDb', TEMPLATE_DB);

  return async () => {
    // An external server outlives the run: leave no template behind (the embedded one is removed whole).
    if (process.env.TEST_DATABASE_URL) {
      const cleanup = createPool(admin.toString(), 1);
      await cleanup.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`).catch(() => {});
      await cleanup.end();
    }
    await stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Later modules add demo data the tests need (e.g. a small catalogue) here. */
async function extendTemplate(db: ReturnType<typeof createDb>) {
  await seedDemoCatalogueIfEmpty(db, () => {}, TEST_CATALOGUE_PRODUCTS);
}
