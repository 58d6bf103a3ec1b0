/** Who may import for which supplier, upload storage, and the job that runs an import. */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import {
  CATALOGUE_IMPORT_UNDO_DAYS,
  Role,
  catalogueImportMessages,
  type CatalogueImportSettings,
} from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../../http/auth.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/problem.ts';
import { inClientTransaction, inTransaction } from '../../db/pool.ts';
import { neutraliseCsvRow } from '../../lib/uploads/csv-safe.ts';
import * as approval from './import-approval.repo.ts';
import * as run from './import-run.repo.ts';
import { withdrawOffers } from './withdrawals.repo.ts';
import * as repo from './catalogue-import.repo.ts';
import { pipelineOptionsOf, runImport, storageKeyOf, storageRef, workingCopyOf } from './import-pipeline.ts';
import { fileStorage } from '../storage/index.ts';
import { SecretBox } from '../transmission/index.ts';
import { checkAllSuppliers } from './consistency.ts';
import { FUTURE_PRICES_CRON, FUTURE_PRICES_QUEUE, promoteDuePrices } from './future-prices.repo.ts';

/** How long approving, discarding or undoing waits for the supplier's import lock before answering 409. */
const DECISION_LOCK_WAIT_MS = 5_000;

export const CATALOGUE_IMPORT_QUEUE = 'catalogue-import';
/**
 * pg-boss retries an import after a lost database connection; a process that dies is noticed by the import's own
 * lease (the sweeper queues it again), so the job's expiry only ends a job its dead process left active.
 */
const IMPORT_JOB_OPTIONS = { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 4 * 60 * 60 };
/** Files in the upload directory that no unfinished import names are removed once they are this old. */
const ORPHAN_AGE_MS = 10 * 60_000;
/** Writes to the file storage a crashed process left unfinished are removed once they are this old. */
const ABANDONED_WRITE_AGE_MS = 60 * 60_000;

export class CatalogueImportService {
  constructor(private readonly deps: AppDeps) {}

  private secrets() {
    return SecretBox.of(this.deps.config);
  }

  /** Administrators import for every supplier, a seller only for the supplier it works for; anything else is a 404. */
  async checkAccess(caller: Caller, supplier: string) {
    if (caller.role === Role.Seller && caller.bpNumber !== supplier)
      throw notFound(catalogueImportMessages.notASupplier);
    if (!(await repo.supplierExists(this.deps.pool, supplier))) throw notFound(catalogueImportMessages.notASupplier);
  }

  /** This machine's working directory of imports (working copies of uploads, unpacked zips). */
  uploadDir() {
    return path.join(this.deps.config.dataDir, 'catalogue-imports');
  }

  private storage() {
    return fileStorage(this.deps);
  }

  /**
   * Streams the upload into the file storage (never into memory; with STORAGE_BACKEND=postgres the worker of any
   * node finds it), then writes the import row and its job in one transaction.
   */
  async start(caller: Caller, supplier: string, fileName: string, content: Readable): Promise<number> {
    const key = `catalogue-imports/${Date.now()}-${randomBytes(6).toString('hex')}.upload`;
    const filePath = storageRef(key);
    try {
      await this.storage().put(key, content);
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
      await this.storage().delete(key);
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

  /** The import's warnings or rejections as CSV (German headers, semicolons, BOM: opens in a German spreadsheet). */
  async listCsv(supplier: string, id: number, kind: 'warnings' | 'rejections') {
    const found = await repo.importDetails(this.deps.pool, supplier, id);
    if (!found) throw notFound(catalogueImportMessages.importNotFound);
    const entries = kind === 'warnings' ? found.warnings : found.rejections;
    const rows = entries.map((e) => neutraliseCsvRow([e.position, e.productId ?? '', e.reason]));
    return stringify(rows, {
      header: true,
      columns: ['Position', 'Artikelnummer', kind === 'warnings' ? 'Hinweis' : 'Grund'],
      delimiter: ';',
      bom: true,
      record_delimiter: 'windows',
    });
  }

  settings(supplier: string) {
    return approval.importSettings(this.deps.pool, supplier);
  }

  /** The limits are staff's: administrators change them, the supplier's seller reads them. */
  async saveSettings(caller: Caller, supplier: string, settings: CatalogueImportSettings) {
    if (caller.role !== Role.Administrator) throw forbidden();
    // The media token is kept encrypted (like workflow secrets) and never given back.
    const { mediaAccessToken, ...rest } = settings;
    const sealedMediaToken =
      mediaAccessToken === undefined ? undefined : mediaAccessToken ? this.secrets().encrypt(mediaAccessToken) : null;
    await approval.saveImportSettings(this.deps.pool, supplier, { ...rest, sealedMediaToken }, caller.userId);
    return approval.importSettings(this.deps.pool, supplier);
  }

  /** A waiting full catalogue withdraws what it listed. */
  approve(caller: Caller, supplier: string, id: number) {
    return this.decide(supplier, id, async (c, row) => {
      if (row.status !== 'AwaitingApproval') throw conflict(catalogueImportMessages.notAwaitingApproval);
      const withdrawn = await withdrawOffers(c, supplier, id, 'pending');
      await approval.markApproved(c, id, caller.userId, withdrawn);
    });
  }

  /** A waiting full catalogue is discarded: what its batches wrote is set back, nothing is withdrawn. */
  discard(caller: Caller, supplier: string, id: number) {
    return this.decide(supplier, id, async (c, row) => {
      if (row.status !== 'AwaitingApproval') throw conflict(catalogueImportMessages.notAwaitingApproval);
      await approval.undoImport(c, supplier, id, row.first_catalogue);
      await approval.markReverted(c, id, 'Discarded', caller.userId);
    });
  }

  /** 'Import rückgängig machen': the supplier's latest applied import, within 30 days. */
  undo(caller: Caller, supplier: string, id: number) {
    return this.decide(supplier, id, async (c, row, view) => {
      if (row.status !== 'Completed' || !['T_NEW_CATALOG', 'T_UPDATE_PRODUCTS'].includes(row.transaction ?? ''))
        throw conflict(catalogueImportMessages.notUndoable);
      const ended = row.finished_at ? new Date(row.finished_at).getTime() : 0;
      if (Date.now() - ended > CATALOGUE_IMPORT_UNDO_DAYS * 86_400_000)
        throw conflict(catalogueImportMessages.undoExpired);
      if (!view.undoableUntil) throw conflict(catalogueImportMessages.notUndoable);
      await approval.undoImport(c, supplier, id, row.first_catalogue);
      await approval.markReverted(c, id, 'RolledBack', caller.userId);
    });
  }

  /**
   * Runs a decision on import `id` under the supplier's import lock (none of its imports runs meanwhile; none waits
   * for this request either: a running one answers 409) in one transaction, with the search caches of every process
   * dropped at its commit. A later import of the supplier makes the decision stale: 409.
   */
  private async decide(
    supplier: string,
    id: number,
    work: (
      c: import('pg').PoolClient,
      row: repo.ImportRowView,
      view: import('@shk/contracts').CatalogueImport,
    ) => Promise<void>,
  ) {
    const c = await run.openSession(this.deps.pool);
    try {
      // The check after an import holds the supplier's lock for a moment: wait that out, not a running import.
      if (!(await run.lockSupplierWithin(c, supplier, DECISION_LOCK_WAIT_MS)))
        throw conflict(catalogueImportMessages.importRunning);
      try {
        await inClientTransaction(c, async () => {
          const found = await repo.findImportForUpdate(c, supplier, id);
          if (!found) throw notFound(catalogueImportMessages.importNotFound);
          if (found.row.superseded) throw conflict(catalogueImportMessages.newerImport);
          await work(c, found.row, found.view);
          await run.bumpCatalogueVersion(c, { recount: true });
        });
      } finally {
        await run.unlockSupplier(c, supplier).catch(() => {});
      }
    } finally {
      c.release();
    }
    return this.details(supplier, id);
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
      const { repaired } = await checkAllSuppliers(this.deps.pool).catch((err) => {
        this.log.error({ err }, 'catalogue consistency check failed');
        return { repaired: [] };
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
    const unfinished = await repo.unfinishedImportFiles(this.deps.pool);
    // Imports of the portal name their upload by key; those queued before the storage seam by its path in DATA_DIR.
    const dataDir = path.resolve(this.deps.config.dataDir);
    const keyOf = (f: string) => storageKeyOf(f) ?? path.relative(dataDir, path.resolve(f)).split(path.sep).join('/');
    await this.removeOrphanUploads(new Set(unfinished.map(keyOf)));
    await fileStorage(this.deps).removeAbandonedWrites(ABANDONED_WRITE_AGE_MS);
    const dir = path.join(this.deps.config.dataDir, 'catalogue-imports');
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    if (!names.length) return;
    const keep = new Set(unfinished.map((f) => path.resolve(workingCopyOf(f, this.deps.config.dataDir))));
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

  /** Uploads in the file storage that no unfinished import names (shared by all nodes: any node's sweeper may go). */
  private async removeOrphanUploads(keep: Set<string>) {
    const storage = fileStorage(this.deps);
    for await (const file of storage.list('catalogue-imports/')) {
      if (keep.has(file.key) || Date.now() - file.modifiedAt.getTime() < ORPHAN_AGE_MS) continue;
      await storage.delete(file.key);
      this.log.info(`catalogue import: orphaned upload ${file.key} removed`);
    }
  }
}

/** The worker: a job runs (or resumes) an import; its lease tells the sweeper when its process has died. */
export function registerCatalogueImportJob(deps: AppDeps) {
  deps.jobs.register<{ importId: number }>(CATALOGUE_IMPORT_QUEUE, async ({ importId }) => {
    await runImport(deps.pool, importId, pipelineOptionsOf(deps.config, deps.pool));
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
