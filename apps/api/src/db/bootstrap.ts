import path from 'node:path';
import pg from 'pg';
import type { AppConfig } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface DatabaseHandle {
  url: string;
  stop: () => Promise<void>;
  embedded: boolean;
}

export const EMBEDDED_DATABASE = 'shk_portal';

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR/postgres. */
export async function openDatabase(config: AppConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {}, embedded: false };
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), config.embeddedPgPort);
  await ensureDatabase(server.url('postgres'), EMBEDDED_DATABASE);
  return { url: server.url(EMBEDDED_DATABASE), stop: server.stop, embedded: true };
}

export async function ensureDatabase(adminUrl: string, name: string, template?: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) {
      await client.query(
        `CREATE DATABASE "${name.replace(/"/g, '')}"${template ? ` TEMPLATE "${template.replace(/"/g, '')}"` : ''} ENCODING 'UTF8'`,
      );
    }
  } finally {
    await client.end();
  }
}
