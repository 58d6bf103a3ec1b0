/** Who may import for which supplier, upload storage, and the job that runs an import. */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { Role, catalogueImportMessages } from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../../http/auth.ts';
import { badRequest, notFound } from '../../http/problem.ts';
import { inTransaction } from '../../db/pool.ts';
import * as repo from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';
import { FUTURE_PRICES_CRON, FUTURE_PRICES_QUEUE, promoteDuePrices } from './future-prices.repo.ts';

export const CATALOGUE_IMPORT_QUEUE = 'catalogue-import';

export class CatalogueImportService {
  constructor(private readonly deps: AppDeps) {}

  /** Administrators import for every supplier, a seller only for the supplier it works for; anything else is a 404. */
  async checkAccess(caller: Caller, supplier: string) {
    if (caller.role === Role.Seller && caller.bpNumber !== supplier)
      throw notFound(catalogueImportMessages.notASupplier);
    if (!(await repo.supplierExists(this.deps.pool, supplier))) throw notFound(catalogueImportMessages.notASupplier);
  }

  uploadDir() {
    return path.join(this.deps.config.dataDir, 'catalogue-imports');
  }

  /** Streams the upload to disk (never into memory), then writes the import row and its job in one transaction. */
  async start(caller: Caller, supplier: string, fileName: string, content: Readable): Promise<number> {
    await fs.promises.mkdir(this.uploadDir(), { recursive: true });
    const filePath = path.join(this.uploadDir(), `${Date.now()}-${randomBytes(6).toString('hex')}.upload`);
    try {
      await pipeline(content, fs.createWriteStream(filePath));
      if ((content as Readable & { truncated?: boolean }).truncated) throw badRequest('Die Datei ist zu groß.');
      return await inTransaction(this.deps.db, async (tx) => {
        const id = await repo.insertImport(tx.$client, { supplier, fileName, filePath, userId: caller.userId });
        await this.deps.jobs.sendInTransaction(
          tx.$client,
          CATALOGUE_IMPORT_QUEUE,
          { importId: id },
          { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 4 * 60 * 60 },
        );
        return id;
      });
    } catch (error) {
      await fs.promises.rm(filePath, { force: true });
      throw error;
    }
  }

  list(supplier: string) {
    return repo.listImports(this.deps.pool, supplier);
  }

  async details(supplier: string, id: number) {
    const details = await repo.importDetails(this.deps.pool, supplier, id);
    if (!details) throw notFound(catalogueImportMessages.importNotFound);
    return details;
  }
}

/** The worker: pg-boss delivers the job again after a crash; the pipeline's upserts make that safe. */
export function registerCatalogueImportJob(deps: AppDeps) {
  deps.jobs.register<{ importId: number }>(CATALOGUE_IMPORT_QUEUE, async ({ importId }) => {
    await runImport(deps.pool, importId, { dataDir: deps.config.dataDir });
  });
  // Future price blocks whose day has come become the offers' prices (search price sort and filter follow).
  deps.jobs.register(
    FUTURE_PRICES_QUEUE,
    async () => {
      await promoteDuePrices(deps.pool);
    },
    { cron: { expression: FUTURE_PRICES_CRON, tz: 'Europe/Berlin' } },
  );
}
