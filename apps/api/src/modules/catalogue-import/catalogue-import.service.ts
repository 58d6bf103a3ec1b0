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
import { pipelineOptionsOf, runImport } from './import-pipeline.ts';
import { checkAllSuppliers } from './consistency.ts';
import { FUTURE_PRICES_CRON, FUTURE_PRICES_QUEUE, promoteDuePrices } from './future-prices.repo.ts';

export const CATALOGUE_IMPORT_QUEUE = 'catalogue-import';
/**
 * pg-boss retries an import after a lost database connection; a process that dies is noticed by the import's own
 * lease (the sweeper queues it again), so the job's expiry only ends a job its dead process left active.
 */
const IMPORT_JOB_OPTIONS = { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 4 * 60 * 60 };
/** Files in the upload directory that no unfinished import names are removed once they are this old. */
const ORPHAN_AGE_MS = 10 * 60_000;

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
          IMPORT_JOB_OPTIONS,
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

/**
 * The import sweeper: imports whose process died (their lease ran out) are queued again and resume from their last
 * committed batch; at start it also removes upload files no unfinished import names and checks every supplier's
 * offers against the search rows and facet counts (consistency.ts).
 */
export class ImportSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: Pick<AppDeps, 'pool' | 'jobs' | 'config'>,
    private readonly log: { info: (...a: unknown[]) => void; error: (...a: unknown[]) => void } = console,
  ) {}

  /** The start-up work, then the sweep every CATALOGUE_IMPORT_SWEEP_MS. */
  start() {
    if (this.timer) return;
    const sweep = () => this.sweep().catch((err) => this.log.error({ err }, 'catalogue import sweeper failed'));
    void (async () => {
      await this.removeOrphanFiles().catch((err) => this.log.error({ err }, 'catalogue import files'));
      await sweep();
      const repaired = await checkAllSuppliers(this.deps.pool).catch((err) => {
        this.log.error({ err }, 'catalogue consistency check failed');
        return [];
      });
      for (const r of repaired)
        this.log.info(
          `catalogue consistency check: supplier ${r.supplier}: ${r.created} missing and ${r.refreshed} wrong search rows repaired`,
        );
    })();
    this.timer = setInterval(sweep, this.deps.config.catalogueImport.sweepMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Queues the imports no live process runs (unless a job for them waits already). */
  async sweep() {
    const orphaned = await repo.orphanedImports(this.deps.pool, this.deps.config.catalogueImport.leaseMs);
    if (!orphaned.length) return;
    const live = await this.deps.jobs.liveJobKeys(
      CATALOGUE_IMPORT_QUEUE,
      'importId',
      orphaned.map((o) => o.id),
      ['created', 'retry'],
    );
    // An import never claimed may still have its first job running (claiming takes a moment): left to that job.
    const active = await this.deps.jobs.liveJobKeys(
      CATALOGUE_IMPORT_QUEUE,
      'importId',
      orphaned.filter((o) => !o.claimed).map((o) => o.id),
      ['active'],
    );
    for (const o of orphaned) {
      if (live.has(String(o.id)) || active.has(String(o.id))) continue;
      await this.deps.jobs.send(CATALOGUE_IMPORT_QUEUE, { importId: o.id }, IMPORT_JOB_OPTIONS);
      this.log.info(`catalogue import ${o.id}: no live process runs it, queued again`);
    }
  }

  /**
   * Uploads and unpacked zips of imports that ended (or of uploads whose import row was never written) are removed:
   * anything in the upload directory that no pending or running import names and that is older than ten minutes (an
   * upload being written is younger).
   */
  async removeOrphanFiles() {
    const dir = path.join(this.deps.config.dataDir, 'catalogue-imports');
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    if (!names.length) return;
    const keep = new Set((await repo.unfinishedImportFiles(this.deps.pool)).map((f) => path.resolve(f)));
    for (const name of names) {
      const file = path.join(dir, name);
      const upload = name.endsWith('.d') ? file.slice(0, -2) : file;
      if (keep.has(path.resolve(upload))) continue;
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat || Date.now() - stat.mtimeMs < ORPHAN_AGE_MS) continue;
      await fs.promises.rm(file, { recursive: true, force: true });
      this.log.info(`catalogue import: orphaned file ${name} removed`);
    }
  }
}

/** The worker: a job runs (or resumes) an import; its lease tells the sweeper when its process has died. */
export function registerCatalogueImportJob(deps: AppDeps) {
  deps.jobs.register<{ importId: number }>(CATALOGUE_IMPORT_QUEUE, async ({ importId }) => {
    await runImport(deps.pool, importId, pipelineOptionsOf(deps.config));
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
