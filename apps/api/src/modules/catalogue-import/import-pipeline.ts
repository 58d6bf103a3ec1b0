/**
 * Runs one import: parse the file as a stream of events, stage articles and merge them in batches
 * of 50,000 (each batch one COPY and one transaction, so progress survives a crash; the parser reads the next batch
 * meanwhile, and a second session computes the search vectors of the committed batch while the import session merges
 * the next one), then withdraw what a full catalogue no longer contains (or, when the check finds that implausible,
 * record the list and wait for approval) and bump the catalogue version so the search sees the change. Writes are
 * idempotent upserts: a crashed import resumes from its last committed batch (or runs again from the start of its
 * file) without duplicates.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { catalogueImportFailureTexts } from '@shk/contracts';
import { inClientTransaction } from '../../db/pool.ts';
import type { AppConfig } from '../../config.ts';
import type { ImportEvent, ImportFormat, ImportTransaction } from './import.types.ts';
import { openCatalogue, type UnzipLimits } from './catalogue-source.ts';
import { checkSupplier } from './consistency.ts';
import { ReferenceData } from './reference-data.ts';
import { MediaStore } from './media-store.ts';
import { LocalStorage, fileStorage, type FileStorage } from '../storage/index.ts';
import { CatalogueWriter, type BatchResult, type SearchWork, type StagedBatch } from './catalogue-writer.ts';
import * as repo from './catalogue-import.repo.ts';
import * as run from './import-run.repo.ts';
import { dropEarlierUndoRecords, importSettings, knownUnits } from './import-approval.repo.ts';
import { checkWithdrawal } from './plausibility.ts';
import { catalogueImportMessages, type CatalogueImportPreview } from '@shk/contracts';
import { addImportedTerms, applyImportedTerms, tallyImportedTerms } from './search-terms.repo.ts';
import {
  clearSearchPricesPending,
  repairSearchPrices,
  updateSearchPricesOf,
  type ChangedPrices,
} from './import-prices.repo.ts';
import { countWithdrawals, recordPendingWithdrawals, withdrawOffers } from './withdrawals.repo.ts';
import {
  dropSearchStaging,
  dropStaging,
  prepareSearchStaging,
  prepareStaging,
  setBatchWorkMem,
} from './staging.repo.ts';
import { publishSearch } from './search-publication.repo.ts';

/** Articles per staged batch: one COPY and one set-based merge each (about 75 MB of COPY text for BMEcat). */
const BATCH = 50_000;
/**
 * Price lines per batch of a T_UPDATE_PRICES: its statements look every line up by index, so a smaller batch costs
 * nothing more per line, and Postgres starts merging after a fifth of the parse a batch of 50,000 would need.
 */
const PRICE_BATCH = 20_000;
/**
 * The first batch of a large import is a quarter of the others: Postgres starts merging it (and the second session
 * its search work) after a quarter of the parse a full first batch needs; the batches after it overlap as before.
 */
const firstBatch = (size: number) => (size >= 1_000 ? Math.ceil(size / 4) : size);

export interface PipelineOptions {
  log?: (message: string) => void;
  batchSize?: number;
  /**
   * DATA_DIR: where this machine keeps an upload's working copy and unpacks a zip; with it (or `storage`) media
   * delivered in a zip are stored (without either they stay references).
   */
  dataDir?: string;
  /** The file storage uploads and media are in (default: the directory backend on dataDir). */
  storage?: FileStorage;
  /** The supplier's storage quota in bytes (default PARTNER_STORAGE_QUOTA_MB). */
  mediaQuotaBytes?: number;
  /** How large a zip may unpack (default 100 × its size and 20 GB). */
  unzipLimits?: UnzipLimits;
  /** Lease of this run, renewed every third of it (default 30 s): a crashed process's import is resumed after it. */
  leaseMs?: number;
  /** Attempts (crashes included) after which the import ends Failed (default 5). */
  maxAttempts?: number;
}

/** The pipeline's settings from the configuration (config.ts). */
export function pipelineOptionsOf(config: AppConfig, pool?: pg.Pool): PipelineOptions {
  const k = config.catalogueImport;
  return {
    dataDir: config.dataDir,
    ...(pool ? { storage: fileStorage({ config, pool }) } : {}),
    mediaQuotaBytes: config.partnerStorageQuotaMb * 1024 * 1024,
    batchSize: k.batchSize,
    unzipLimits: { maxRatio: k.unzipMaxRatio, maxBytes: k.unzipMaxBytes },
    leaseMs: k.leaseMs,
    maxAttempts: k.maxAttempts,
  };
}

/** This process, as the owner of the leases of the imports it runs. */
const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_ATTEMPTS = 5;

/** Another process took the import over (this one's lease ran out): this run stops without touching it further. */
export class LeaseLostError extends Error {}

/** The run's lease, renewed while it runs; `lost` once another process has taken it over. */
interface Lease {
  lost: boolean;
  stop: () => void;
}

function holdLease(pool: pg.Pool, id: number, leaseMs: number, log: (m: string) => void): Lease {
  const lease: Lease = { lost: false, stop: () => clearInterval(timer) };
  const timer = setInterval(
    () =>
      repo
        .renewLease(pool, id, PROCESS_OWNER, leaseMs)
        .then((held) => {
          if (!held) lease.lost = true;
        })
        .catch((error) => log(`import ${id}: lease not renewed: ${error instanceof Error ? error.message : error}`)),
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return lease;
}

/**
 * A portal upload is named by its storage key ('storage:catalogue-imports/….upload'): whichever node's worker takes
 * the job finds it there. An import of the CLI names its own file by path.
 */
const STORAGE_REF = 'storage:';
export const storageRef = (key: string) => `${STORAGE_REF}${key}`;
export const storageKeyOf = (filePath: string) =>
  filePath.startsWith(STORAGE_REF) ? filePath.slice(STORAGE_REF.length) : null;

/** The storage the options name, or the directory backend on their DATA_DIR. */
function storageOf(options: Pick<PipelineOptions, 'storage' | 'dataDir'>): FileStorage | null {
  return options.storage ?? (options.dataDir ? new LocalStorage(options.dataDir) : null);
}

/** Where this machine works on an upload: its copy of it (DATA_DIR/<key>) and the zip unpacked beside it (.d). */
export function workingCopyOf(filePath: string, dataDir: string) {
  const key = storageKeyOf(filePath);
  return key ? path.join(dataDir, ...key.split('/')) : filePath;
}

/**
 * The import's file on this machine: an upload from the file storage (the postgres backend writes a working copy
 * under DATA_DIR, the directory backend has the file itself), or the CLI's own file.
 */
async function localImportFile(filePath: string, options: PipelineOptions) {
  const key = storageKeyOf(filePath);
  if (!key) return { path: filePath, release: async () => {} };
  const storage = storageOf(options);
  const local = storage && options.dataDir ? await storage.materialise(key, options.dataDir) : null;
  // ENOENT: the import fails with the German "file is no longer there" (failureText).
  if (!local) throw Object.assign(new Error(`upload ${key} is missing`), { code: 'ENOENT' });
  return local;
}

/**
 * The upload (in the file storage, or the portal's own copy, .upload, from before the seam), this machine's working
 * copy and the files a zip was unpacked to; a CLI's own file stays.
 */
export async function removeImportFiles(filePath: string, options: Pick<PipelineOptions, 'storage' | 'dataDir'> = {}) {
  const key = storageKeyOf(filePath);
  if (key) {
    await storageOf(options)
      ?.delete(key)
      .catch(() => {});
    if (!options.dataDir) return;
    const local = workingCopyOf(filePath, options.dataDir);
    await fs.promises.rm(local, { force: true }).catch(() => {});
    await fs.promises.rm(`${local}.d`, { recursive: true, force: true }).catch(() => {});
    return;
  }
  if (filePath.endsWith('.upload')) await fs.promises.rm(filePath, { force: true }).catch(() => {});
  await fs.promises.rm(`${filePath}.d`, { recursive: true, force: true }).catch(() => {});
}

/**
 * Runs import `id` to its end; one import per supplier at a time (a second one waits for the lock). The run holds
 * the import's lease (heartbeat): when its process dies, the import sweeper of any process queues it again once
 * the lease has run out, and the next attempt resumes from the last completely committed batch. After every run
 * that ends (Completed, AwaitingApproval or Failed) the supplier's offers, search rows and facet counts are checked
 * and repaired, and the upload and its unpacked files are removed (a waiting full catalogue needs neither its file
 * nor its seen article numbers: approval withdraws its recorded list).
 */
export async function runImport(pool: pg.Pool, id: number, options: PipelineOptions = {}): Promise<repo.ImportCounts> {
  const log = options.log ?? (() => {});
  const row = await repo.findImportRow(pool, id);
  if (!row || hasEnded(row.status)) return zero();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // Another live process runs it (a job delivered twice, or a crashed process's job redelivered late).
  if (!(await repo.claimLease(pool, id, PROCESS_OWNER, leaseMs))) return zero();
  const lease = holdLease(pool, id, leaseMs, log);
  const supplier: string = row.supplier_bp_number;
  try {
    const c = await run.openSession(pool);
    try {
      await run.lockSupplier(c, supplier);
      // Set once the import is marked Completed, AwaitingApproval or Failed: then (only then) the check runs and its
      // files go.
      let ended = false;
      let skipCheck = false;
      try {
        // A redelivered job may have waited here for its own earlier attempt, which has finished since.
        const current = await repo.findImportRow(c, id);
        if (hasEnded(current.status)) return zero();
        if (lease.lost) return zero();
        if (current.attempts >= (options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) {
          await failImport(c, id, supplier, catalogueImportFailureTexts.abandoned(current.attempts), log);
          ended = true;
          return zero();
        }
        const resume = await repo.startAttempt(c, id);
        if (resume) log(`import ${id}: resumed after ${resume.articles.toLocaleString('de-DE')} articles`);
        await repo.supersedeWaitingImports(c, supplier, id, catalogueImportMessages.supersededWhileWaiting);
        // Indexes and foreign keys an earlier import crashed without restoring.
        await run.restoreImportIndexes(c);
        await run.restoreImportConstraints(c);
        // Search prices an earlier price update of the supplier crashed without writing.
        if (await repairSearchPrices(c, supplier)) log(`import ${id}: lowest prices of the search rows recomputed`);
        const started = Date.now();
        try {
          const local = await localImportFile(row.file_path, options);
          const { preview, ...counts } = await importFile(
            pool,
            c,
            id,
            supplier,
            local.path,
            options.batchSize ?? BATCH,
            log,
            { ...options, resume, lease },
          ).finally(() => local.release());
          // A full catalogue whose withdrawal is implausible stops before it: staff or the supplier's seller decide.
          if (preview) await repo.awaitApproval(c, id, preview);
          else await repo.finishImport(c, id, 'Completed', null);
          ended = true;
          await run.markSupplierImported(c, supplier, id);
          // Only the supplier's latest import can be undone.
          await dropEarlierUndoRecords(c, supplier, id);
          log(
            `import ${id}: ${counts.read} read, ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ` +
              `${counts.deleted} withdrawn, ${counts.rejected} rejected, ${counts.warnings} warnings in ` +
              `${((Date.now() - started) / 1000).toFixed(1)} s${preview ? ', waiting for approval' : ''}`,
          );
          // A price update adds or removes no offer and no search row (its search prices have their own repair):
          // nothing the check compares can have moved, and it would read all of the supplier's offers again.
          skipCheck = (await repo.findImportRow(c, id))?.transaction === 'T_UPDATE_PRICES';
          return counts;
        } catch (error) {
          // Lost database connections are retried by the job; a broken file is final. A run whose lease another
          // process took over leaves the import to it.
          if (error instanceof LeaseLostError || lease.lost) return zero();
          if (isTransient(error)) throw error;
          await failImport(c, id, supplier, failureText(error, log), log);
          ended = true;
          return zero();
        }
      } finally {
        if (ended) await endRun(c, id, supplier, row.file_path, log, skipCheck, options);
        await run.unlockSupplier(c, supplier).catch(() => {});
      }
    } finally {
      c.release();
    }
  } finally {
    lease.stop();
    await repo.releaseLease(pool, id, PROCESS_OWNER).catch(() => {});
  }
}

/**
 * Ends an import Failed with `message` (German): indexes and foreign keys dropped for a first large catalogue are
 * restored, and the products written before it broke stay and stay searchable.
 */
async function failImport(c: pg.PoolClient, id: number, supplier: string, message: string, log: (m: string) => void) {
  await run.restoreImportIndexes(c).catch(() => {});
  await inClientTransaction(c, async () => {
    await addImportedTerms(c, id);
    if (await publishSearch(c, id)) await run.bumpCatalogueVersion(c);
  }).catch(() => {});
  await run.restoreImportConstraints(c).catch(() => {});
  await repairSearchPrices(c, supplier).catch(() => {});
  // A list of offers to withdraw recorded before the failure (a resumed attempt that fails after the check) is void.
  await repo.dropPendingWithdrawals(c, id);
  await repo.finishImport(c, id, 'Failed', message);
  await run.deleteSeen(c, id);
  await run.deleteStagedSearch(c, id);
  log(`import ${id} failed: ${message}`);
}

/** After an import ended: offers, search rows and facet counts agree (repaired if not), and its files are gone. */
async function endRun(
  c: pg.PoolClient,
  id: number,
  supplier: string,
  filePath: string,
  log: (m: string) => void,
  skipCheck: boolean,
  options: PipelineOptions,
) {
  if (!skipCheck)
    try {
      const repaired = await checkSupplier(c, supplier);
      if (repaired.created || repaired.refreshed)
        log(
          `import ${id}: consistency check repaired ${repaired.created} missing and ${repaired.refreshed} wrong search rows`,
        );
    } catch (error) {
      log(`import ${id}: consistency check failed: ${error instanceof Error ? error.message : error}`);
    }
  await removeImportFiles(filePath, options);
}

async function importFile(
  pool: pg.Pool,
  c: pg.PoolClient,
  id: number,
  supplier: string,
  file: string,
  batchSize: number,
  log: (m: string) => void,
  options: PipelineOptions & { resume: repo.ResumePoint | null; lease: Lease },
) {
  /**
   * The import's second session, one batch behind the first: it computes the search vectors of a committed batch, or
   * for a price update writes the search rows' lowest prices. Every kind of file needs it: its connection is opened
   * beside the reference session's and the first batch's parse, not after that batch has been merged. A failure to
   * open it surfaces where the session is first used.
   */
  const second = openPreparedSession(pool, prepareSearchStaging);
  second.catch(() => {});
  // Reference data the file brings that the catalogue lacks is created by a third session right when an article is
  // staged (committed at once), while this one merges the previous batch.
  const reference = run.openSession(pool);
  reference.catch(() => {});
  // A price update's second merge lane (importStaged), with staging tables of its own.
  const lane: { session?: Promise<pg.PoolClient> } = {};
  const openLane = () =>
    openPreparedSession(pool, async (s) => {
      await run.setTempBuffers(s).catch(() => {});
      await prepareStaging(s);
    });
  try {
    const { events, mediaDir, catalogue } = await openCatalogue(file, options.unzipLimits);
    await run.syncProductNoSequence(c);
    const refClient = await reference;
    // Staging tables live in this session's temp buffers (must be set before its first temp table).
    await run.setTempBuffers(c).catch(() => {});
    await prepareStaging(c);
    const mediaStorage = storageOf(options);
    const media =
      mediaDir && mediaStorage
        ? new MediaStore(
            refClient,
            supplier,
            mediaStorage,
            path.resolve(mediaDir),
            path.dirname(path.resolve(catalogue)),
            options.mediaQuotaBytes,
          )
        : null;
    const fileBytes = (await fs.promises.stat(catalogue)).size;
    return await importStaged({
      c,
      refClient,
      id,
      supplier,
      events,
      batchSize,
      log,
      media,
      fileBytes,
      searchSession: second,
      priceLane: () => (lane.session ??= openLane()),
      resume: options.resume,
      lease: options.lease,
    });
  } finally {
    (await reference.catch(() => null))?.release();
    await releaseSession(lane.session, dropStaging);
    await releaseSession(second, dropSearchStaging);
    await dropStaging(c).catch(() => {});
  }
}

/** An extra session of the import with its staging tables; destroyed instead of handed back if preparing fails. */
async function openPreparedSession(pool: pg.Pool, prepare: (s: pg.PoolClient) => Promise<unknown>) {
  const s = await run.openSession(pool);
  try {
    await prepare(s);
    return s;
  } catch (error) {
    s.release(true);
    throw error;
  }
}

/**
 * Hands an extra session of the import back to the pool once its staging tables are dropped; a session whose
 * connection broke (the drop fails) is destroyed instead.
 */
async function releaseSession(
  session: Promise<pg.PoolClient> | undefined,
  drop: (s: pg.PoolClient) => Promise<unknown>,
) {
  const s = session && (await session.catch(() => null));
  if (!s) return;
  const dropped = await drop(s).then(
    () => true,
    () => false,
  );
  s.release(!dropped);
}

/** One import's sessions, file and settings, as importStaged and its steps use them. */
interface StagedImport {
  /** The import session: merges the batches and publishes. */
  c: pg.PoolClient;
  /** The reference-data session (codes created as articles are staged, committed at once). */
  refClient: pg.PoolClient;
  id: number;
  supplier: string;
  events: AsyncIterable<ImportEvent>;
  batchSize: number;
  log: (m: string) => void;
  media: MediaStore | null;
  fileBytes: number;
  /** The second session: search vectors and search prices of committed batches. */
  searchSession: Promise<pg.PoolClient>;
  /** Opens a price update's second merge lane. */
  priceLane: () => Promise<pg.PoolClient>;
  resume: repo.ResumePoint | null;
  lease: Lease;
}

/** The writer for the file's header, and what the header decided about withdrawals, indexes and a second lane. */
async function openWriter(
  job: StagedImport,
  header: { format: ImportFormat; transaction: ImportTransaction },
  supplierName: string,
  reference: () => Promise<ReferenceData>,
) {
  const { c, refClient, id, supplier, resume } = job;
  const transaction = header.transaction;
  let withdraws = false;
  // A full catalogue of a supplier without offers (its first import) can withdraw nothing: every
  // offer it creates is in the file. It then records no article numbers as seen.
  if (transaction === 'T_NEW_CATALOG') {
    // A resumed attempt keeps the first attempt's decision (the supplier has offers by then either way).
    withdraws = resume?.withdraws ?? (await run.supplierHasOffers(c, supplier));
    await repo.saveWithdraws(c, id, withdraws);
  }
  // So does it whether the supplier had no offers when the import began (undo withdraws all its offers then).
  const firstCatalogue = resume
    ? resume.firstCatalogue
    : transaction !== 'T_UPDATE_PRICES' &&
      (transaction === 'T_NEW_CATALOG' ? !withdraws : !(await run.supplierHasOffers(c, supplier)));
  if (firstCatalogue && !resume) await repo.markFirstCatalogue(c, id);
  const ref = transaction === 'T_UPDATE_PRICES' ? ReferenceData.unloaded(refClient) : await reference();
  const writer = new CatalogueWriter(c, supplier, supplierName, ref, id, transaction, withdraws, job.media);
  writer.firstCatalogue = firstCatalogue;
  if (transaction !== 'T_UPDATE_PRICES') writer.knownUnits = await knownUnits(c);
  let laneOpening: Promise<pg.PoolClient> | null = null;
  if (transaction === 'T_UPDATE_PRICES') {
    laneOpening = job.priceLane();
    // A failure to open it surfaces at the batch that needs it.
    laneOpening.catch(() => {});
  }
  let bulkIndexes: string[] = [];
  if (transaction === 'T_NEW_CATALOG' && !withdraws && !resume)
    bulkIndexes = await writer.timedStep('drop indexes', () => dropIndexesForFirstLargeCatalogue(c, job.fileBytes));
  writer.hasFuturePrices = await run.supplierHasFuturePrices(c, supplier);
  // A resumed attempt meets the offers of the batches before the crash: it upserts.
  if (transaction !== 'T_UPDATE_PRICES')
    writer.newOffersOnly =
      !resume && (transaction === 'T_NEW_CATALOG' ? !withdraws : !(await run.supplierHasOffers(c, supplier)));
  return { writer, withdraws, laneOpening, bulkIndexes };
}

/**
 * Checked before anything is withdrawn: a file with nothing accepted, or one that would withdraw (or rejects) more
 * than the supplier's limits, lists what it would withdraw and waits for approval (the preview); otherwise the offers
 * the file no longer contains are withdrawn. Runs in the publishing transaction.
 */
async function settleWithdrawals(c: pg.PoolClient, supplier: string, id: number, counts: repo.ImportCounts) {
  const { assortment, withdraw } = await countWithdrawals(c, supplier, id);
  const check = withdraw
    ? checkWithdrawal(
        { assortment: assortment - counts.created, toWithdraw: withdraw, ...counts },
        await importSettings(c, supplier),
      )
    : null;
  let preview: CatalogueImportPreview | null = null;
  let withdrawn = 0;
  if (check?.reasons.length) {
    preview = check;
    await recordPendingWithdrawals(c, supplier, id);
    await repo.savePreview(c, id, check);
  } else if (withdraw) {
    withdrawn = await withdrawOffers(c, supplier, id, 'not-seen');
  }
  // Decided: an attempt after a crash from here on (its seen article numbers are deleted next) neither checks nor
  // withdraws again; it waits for approval if this one does (the preview is kept with the import).
  await repo.saveWithdraws(c, id, false);
  return { preview, withdrawn };
}

async function importStaged(job: StagedImport) {
  const { c, refClient, id, supplier, events, batchSize, log, searchSession, resume, lease } = job;
  // A resumed attempt starts with the counts of the batches committed before the crash and skips their articles.
  const counts = resume ? { ...resume.counts } : zero();
  const supplierName = await run.supplierName(c, supplier);
  // Loaded when the file needs it: a price update resolves no reference data, and loading it reads (among others) the
  // class → leaf counts of all products, a scan of the whole products table.
  let loaded: Promise<ReferenceData> | null = null;
  const reference = () => (loaded ??= ReferenceData.load(refClient, supplier));
  let header: { format: ImportFormat; transaction: ImportTransaction } | null = null;
  let writer: CatalogueWriter | null = null;
  let withdraws = false;
  // Batches committed by an earlier attempt changed the catalogue: its version is raised (and counted) at the end.
  let changed = resume ? 1 : 0;
  /** Articles (in the order the file gives them) read so far; those up to `resume.articles` are skipped. */
  let ordinal = 0;
  /**
   * Batches in the order they were handed to a merge lane, until they are committed completely (merge, rejections,
   * the second session's work): the resume point moves over the committed prefix (a price update's two lanes may
   * commit out of order).
   */
  const open: { end: number; delta: repo.ImportCounts | null }[] = [];
  const resumePoint = { articles: resume?.articles ?? 0, counts: resume ? { ...resume.counts } : zero() };
  const groupMaps: { pid: string; group: string }[] = [];
  let mapped = 0;
  let hasReferences = false;
  /** Secondary indexes of products and offers dropped for a supplier's first large catalogue. */
  let bulkIndexes: string[] = [];

  /**
   * Merge lanes: batches are written while the parser reads the next (Node parses, Postgres writes). A catalogue's
   * batches are merged one after the other by this session. A price update has a second lane (its own session): a
   * price batch changes only its own offers (an article number once per file), so two batches merge at once, each
   * in its own transaction, and the search prices of both follow in the second session in the order they commit.
   */
  interface Lane {
    session: pg.PoolClient;
    writing: Promise<void>;
    inTransaction: boolean;
  }
  const lanes: Lane[] = [{ session: c, writing: Promise.resolve(), inTransaction: false }];
  let nextLane = 0;
  /** A price update's second lane, opened when the header says so and used from its second batch on. */
  let laneOpening: Promise<pg.PoolClient> | null = null;
  /** Every lane's batch written; the first failure once all have ended. */
  const allWritten = async () => {
    const failed = (await Promise.allSettled(lanes.map((l) => l.writing))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  // The second session's work for each committed batch, in order, while this session merges the next one: a price
  // update's search prices, a catalogue's search vectors.
  let secondSessionWork: Promise<void> = Promise.resolve();
  let searchPricesPending = false;
  // At most one batch's search texts wait for the second session besides the batch being merged (memory).
  let searchGate: Promise<void> = Promise.resolve();
  const besideMerge = (work: (session: pg.PoolClient) => Promise<void>) => {
    secondSessionWork = secondSessionWork.then(async () => work(await searchSession));
    // Awaited before the next batches and when the import ends (or fails); until then not unhandled.
    secondSessionWork.catch(() => {});
  };
  const writeSearchVectors = (w: CatalogueWriter, work: SearchWork) => besideMerge((s) => w.writeSearch(s, work));
  // Products whose search prices the second session has yet to write, per batch handed to it.
  const searchPricesQueued = new Set<number[]>();
  const writeSearchPrices = (w: CatalogueWriter, changed: ChangedPrices) => {
    const queued = changed.productNos;
    searchPricesQueued.add(queued);
    besideMerge((s) =>
      w
        .timedStep('search prices', () =>
          inClientTransaction(s, async () => {
            await setBatchWorkMem(s);
            await updateSearchPricesOf(s, changed);
          }),
        )
        .finally(() => searchPricesQueued.delete(queued)),
    );
  };
  /**
   * The last batch's search prices are written by this session, in the batch's transaction, while the second session
   * finishes the batch before: nothing is left for after the last commit. Not when a product of the batch is still
   * queued there: the second session's statement may not see this batch's prices and could write its older lowest
   * price after this one; such a batch goes to the second session, behind that work, as every other batch.
   */
  const writeSearchPricesInline = async (w: CatalogueWriter, r: BatchResult, lane: Lane) => {
    const changed = r.searchPrices;
    if (!changed?.productNos.length) return;
    // The other lane's batch, not committed yet, may change other offers of the same products.
    if (lanes.some((l) => l !== lane && l.inTransaction)) return;
    const batch = new Set(changed.productNos);
    for (const queued of searchPricesQueued) if (queued.some((no) => batch.has(no))) return;
    await w.timedStep('search prices', () => updateSearchPricesOf(lane.session, changed));
    r.searchPrices = null;
  };
  const writeBatch = async (
    w: CatalogueWriter,
    part: StagedBatch,
    last: boolean,
    lane: Lane,
    batch: (typeof open)[number],
  ) => {
    const s = lane.session;
    lane.inTransaction = true;
    let result: BatchResult;
    try {
      result = await inClientTransaction(s, async () => {
        const r = await w.write(part, s);
        // The batch marked the supplier (search prices pending): the import's end removes the mark.
        if (r.searchPrices) searchPricesPending = true;
        if (last) await writeSearchPricesInline(w, r, lane);
        // Cart totals (cart_totals) and the catalogue's caches are valid under the catalogue version: it is raised in
        // every batch that changed offers, in the batch's transaction, so a cart prices the batch's new offers and
        // prices as soon as it commits, not only when the import ends. Last statement of the batch: the row lock on
        // catalogue_state is held only until the commit (imports of other suppliers and the other lane raise it too).
        if (r.changedProducts || r.deleted) await run.bumpCatalogueVersion(s, { recount: false });
        return r;
      });
    } finally {
      lane.inTransaction = false;
    }
    // Right after the commit, before anything else runs: the other lane's last batch sees these products queued.
    if (result.searchPrices?.productNos.length) writeSearchPrices(w, result.searchPrices);
    if (result.searchVectors) writeSearchVectors(w, result.searchVectors);
    const delta = batchCounts(part, result);
    addCounts(counts, delta);
    changed += result.changedProducts + result.deleted;
    // Outside the batch's transaction, on its lane (the other lane may be inside one). Progress saved out of order
    // is overwritten by the import's last transaction.
    await repo.saveRejections(s, id, result.rejected);
    await repo.saveWarnings(s, id, result.notes);
    await repo.saveProgress(s, id, counts, header ?? { format: null, transaction: null });
    // The resume point moves once the second session's work for this batch is done too (it is queued behind it).
    batch.delta = delta;
    besideMerge(async (session) => {
      if (advanceResumePoint(open, resumePoint))
        await repo.saveResumePoint(session, id, resumePoint.articles, resumePoint.counts);
    });
    if (counts.read % 100_000 < part.read) log(`import ${id}: ${counts.read.toLocaleString('de-DE')} articles`);
  };
  // Where the overlap falls short (logged with the steps): the parser waiting for the previous batch's merge, and the
  // merge session idle until the parser has the next batch.
  let writtenAt: number | null = null;
  let batchesStarted = false;
  /** `last`: the parser has read the whole file (this is the last batch). */
  const flush = async (wait = false, last = false) => {
    // Another process has taken the import over (this process was thought dead): stop before writing more.
    if (lease.lost) throw new LeaseLostError(`import ${id}: lease lost`);
    const waitStarted = performance.now();
    if (laneOpening && batchesStarted && lanes.length === 1 && writer?.size)
      lanes.push({ session: await laneOpening, writing: Promise.resolve(), inTransaction: false });
    const lane = lanes[nextLane];
    // This lane's previous batch (the other lane's, if any, may still be merging).
    await lane.writing;
    // The second session's work queued up to the previous flush (a failure there ends the import): at most that much
    // waits for it (memory).
    await searchGate;
    searchGate = secondSessionWork;
    const now = performance.now();
    if (writer) addTiming(writer, 'parser waits for merge', now - waitStarted);
    if (writer?.size) {
      const w = writer;
      if (writtenAt !== null) addTiming(w, 'merge waits for parser', now - writtenAt);
      batchesStarted = true;
      const batch = { end: ordinal, delta: null };
      open.push(batch);
      lane.writing = writeBatch(w, w.take(), last, lane, batch).then(() => void (writtenAt = performance.now()));
      // Awaited at the next flush; until then a failure must not count as unhandled.
      lane.writing.catch(() => {});
      nextLane = (nextLane + 1) % lanes.length;
    }
    if (wait) await allWritten();
  };
  const flushMaps = async () => {
    if (!groupMaps.length) return;
    const part = groupMaps.splice(0);
    mapped += await applyGroupMaps(c, supplier, part, (await reference()).groupLeaves);
  };

  try {
    for await (const event of events as AsyncGenerator<ImportEvent>) {
      if (event.kind === 'header') {
        header = { format: event.format, transaction: event.transaction };
        ({ writer, withdraws, laneOpening, bulkIndexes } = await openWriter(job, header, supplierName, reference));
        await repo.saveProgress(c, id, counts, header);
      } else if (event.kind === 'names') {
        // Names given to codes an earlier import created: the catalogue's caches must reload them.
        changed += await (await reference()).addNames(event.names);
      } else if (event.kind === 'group') {
        await (await reference()).mapGroup(supplier, event.group.id, event.group.name, event.group.parentId);
      } else if (event.kind === 'article') {
        if (event.article.references.length) hasReferences = true;
        // Committed completely by an earlier attempt.
        if (++ordinal <= (resume?.articles ?? 0)) continue;
        if (!writer) throw new Error('Die Katalogdatei enthält Artikel vor ihrem Kopf.');
        await writer.stage(event.article);
        const size = header?.transaction === 'T_UPDATE_PRICES' ? Math.min(batchSize, PRICE_BATCH) : batchSize;
        if (writer.size >= (batchesStarted ? size : firstBatch(size))) await flush();
      } else if (event.kind === 'groupMap') {
        if (!groupMaps.length) await flush(true);
        groupMaps.push({ pid: event.supplierPid, group: event.groupId });
        if (groupMaps.length >= 10_000) await flushMaps();
      }
    }
  } catch (error) {
    // A broken file stops the parser; the batch being written finishes before the import is marked failed, and so
    // do the second session's work for the batches merged (search vectors; search prices, whose mark stays if they
    // could not be written).
    await Promise.all(lanes.map((l) => l.writing.catch(() => {})));
    const besideWritten = await secondSessionWork.then(
      () => true,
      () => false,
    );
    if (searchPricesPending && besideWritten) await clearSearchPricesPending(c, supplier);
    throw error;
  }
  try {
    await flush(true, true);
    // The indexes of products and offers dropped for a first large catalogue are built while the second session
    // computes the last batch's search vectors (they need none of them: products are found by their unique key).
    if (bulkIndexes.length) await writer?.timedStep('rebuild indexes', () => run.restoreImportIndexes(c, bulkIndexes));
  } finally {
    // The second session's work ends before the import goes on (or fails).
    await secondSessionWork.catch(() => {});
  }
  await secondSessionWork;
  // The words of the search rows to publish are counted by the second session meanwhile (search_terms). A price update
  // stages no search rows: nothing to count (the count's ANALYZE and reads delayed its end by 0.2–0.6 s at 1,000,000).
  const terms = header?.transaction === 'T_UPDATE_PRICES' ? null : await tallyTerms(job, writer);
  await flushMaps();
  changed += mapped;

  // Search rows added or removed: the planner's statistics of product_search are refreshed.
  let reshaped = counts.deleted > 0;
  await terms?.ready;
  let preview: CatalogueImportPreview | null = null;
  await inClientTransaction(c, async () => {
    if (withdraws) {
      const settled = await settleWithdrawals(c, supplier, id, counts);
      preview = settled.preview;
      counts.deleted += settled.withdrawn;
      changed += settled.withdrawn;
      reshaped ||= settled.withdrawn > 0;
    } else if (resume?.preview) {
      preview = resume.preview;
    }
    if (hasReferences) await run.resolveReferences(c);
    if (searchPricesPending) await clearSearchPricesPending(c, supplier);
    if (await publishSearchRows(c, id, writer, terms)) reshaped = true;
    // The search rows are counted again only when rows were added or removed: a price update changes none of them,
    // and counting a million search rows is a scan of the whole table.
    if (changed) await run.bumpCatalogueVersion(c, { recount: reshaped });
    await repo.saveProgress(c, id, counts, header ?? { format: null, transaction: null });
    // Every batch is committed completely by now: an attempt after a crash from here on keeps the withdrawn count.
    if (resumePoint.articles > 0) await repo.saveResumePoint(c, id, resumePoint.articles, counts);
  });
  await finishImport(job, writer, bulkIndexes, reshaped);
  return { ...counts, preview: preview as CatalogueImportPreview | null };
}

/** What one committed batch adds to the import's counts. */
function batchCounts(part: StagedBatch, result: BatchResult): repo.ImportCounts {
  return {
    read: part.read,
    created: result.created,
    updated: result.updated,
    unchanged: result.unchanged,
    deleted: result.deleted,
    rejected: result.rejected.length,
    warnings: result.notes.length,
  };
}

/** The second session counts the words of the search rows to publish while the import session goes on. */
async function tallyTerms(job: StagedImport, writer: CatalogueWriter | null) {
  const terms = tallyImportedTerms(await job.searchSession, job.id, { inTransaction: false });
  void writer?.timedStep('search terms (second session)', () => terms.rows).catch(() => {});
  return terms;
}

/** Moves the resume point over the batches committed completely at the front of `open`; true when it moved. */
function advanceResumePoint(
  open: { end: number; delta: repo.ImportCounts | null }[],
  resumePoint: { articles: number; counts: repo.ImportCounts },
) {
  let moved = false;
  while (open[0]?.delta) {
    const done = open.shift()!;
    addCounts(resumePoint.counts, done.delta!);
    resumePoint.articles = done.end;
    moved = true;
  }
  return moved;
}

/** Publishes the staged search rows and their words (publishing transaction); true when rows were added or removed. */
async function publishSearchRows(
  c: pg.PoolClient,
  id: number,
  writer: CatalogueWriter | null,
  terms: ReturnType<typeof tallyImportedTerms> | null,
) {
  const time = <T>(label: string, work: () => Promise<T>) => (writer ? writer.timedStep(label, work) : work());
  const reshaped = (await publishSearch(c, id, time)) > 0;
  if (terms) await time('publish: search terms', async () => applyImportedTerms(c, await terms.rows));
  return reshaped;
}

/** After the publishing transaction: foreign keys back, seen article numbers gone, statistics and timings. */
async function finishImport(
  job: StagedImport,
  writer: CatalogueWriter | null,
  bulkIndexes: string[],
  reshaped: boolean,
) {
  const { c, id, searchSession, log } = job;
  // Foreign keys dropped for a first large catalogue: added again and validated, one set-based check each.
  if (bulkIndexes.length)
    await writer?.timedStep('foreign keys', async () => run.restoreImportConstraints(c, await searchSession));
  await run.deleteSeen(c, id);
  // A price update leaves the rows as they are; autovacuum's analyze follows its price changes.
  if (reshaped) await run.analyzeSearch(c);
  if (writer)
    log(
      `import ${id}: time per step ` +
        [...writer.timings].map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', '),
    );
}

/** Tables whose secondary (non-unique) indexes a first large catalogue drops and builds afresh. */
const BULK_TABLES = ['products', 'product_offers'];
/** Estimated bytes per BMEcat product (the bench's generated ones have 1.5 KB, real ones 1–3 KB). */
const BYTES_PER_PRODUCT = 1_000;
const BULK_PRODUCTS = 50_000;

/**
 * A supplier's first full catalogue that is large (≥ 50,000 products estimated from the file size)
 * and at least as large as the catalogue already there: the non-unique indexes of products and
 * offers (GTIN, normalised article numbers, offers by product) are dropped and built afresh once
 * the last batch is written — one sort per index instead of an index insert per row, as the
 * catalogue loader does. The unique indexes the upserts need stay. The definitions are recorded in
 * catalogue_load_indexes first (the loader's table), so an import that crashes meanwhile leaves them
 * to the next import or catalogue load to rebuild (`restoreImportIndexes`). Lookups by those
 * columns (quick order, article number search) are slower while the import runs. The foreign keys of
 * products, offers and search rows are dropped as well (recorded in catalogue_import_constraints) and
 * added again NOT VALID plus VALIDATE when the search rows are published: one set-based check per key
 * instead of a lookup per written row; the next import restores them after a crash.
 */
async function dropIndexesForFirstLargeCatalogue(c: pg.PoolClient, fileBytes: number): Promise<string[]> {
  const estimated = fileBytes / BYTES_PER_PRODUCT;
  if (estimated < BULK_PRODUCTS) return [];
  if ((await run.estimatedProducts(c)) > estimated) return [];
  return inClientTransaction(c, async () => {
    // Their foreign keys (and those of the search rows and their prices, published at the end) too: one lookup per
    // written row and key otherwise, about half the time of the products' insert.
    await run.recordAndDropForeignKeys(c, [...BULK_TABLES, 'product_search', 'product_search_prices']);
    return run.recordAndDropSecondaryIndexes(c, BULK_TABLES);
  });
}

/** Products placed in a supplier group that maps to a portal leaf move to that leaf. */
async function applyGroupMaps(
  c: pg.PoolClient,
  supplier: string,
  maps: { pid: string; group: string }[],
  leaves: Map<string, number>,
) {
  const rows = maps.filter((m) => leaves.has(m.group));
  if (!rows.length) return 0;
  return inClientTransaction(c, async () => {
    const moved = await run.moveProductsToLeaves(
      c,
      supplier,
      rows.map((r) => r.pid),
      rows.map((r) => leaves.get(r.group)!),
    );
    if (moved.length) await run.updateSearchLeaves(c, moved);
    return moved.length;
  });
}

/**
 * The German reason an import fails with: the file's own errors are German already (parsers, unzip); a system or
 * database error (it has a code) gets a German sentence naming the code (a database error also its text), and the
 * whole error goes to the log.
 */
function failureText(error: unknown, log: (m: string) => void): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string' || !code) return message;
  log(`import failed: ${code} ${message}`);
  if (code === 'ENOENT') return catalogueImportFailureTexts.fileMissing;
  if (code === 'ENOSPC') return catalogueImportFailureTexts.diskFull;
  // A database error's text helps the support (constraint or trigger names); a system error's names server paths.
  return catalogueImportFailureTexts.internal(/^[0-9A-Z]{5}$/.test(code) ? `${code}: ${message}` : code);
}

function isTransient(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return [
    '57P01',
    '57P02',
    '57P03',
    '08000',
    '08003',
    '08006',
    'ECONNRESET',
    'ECONNREFUSED',
    '40001',
    '40P01',
  ].includes(code);
}

const addTiming = (w: CatalogueWriter, label: string, ms: number) =>
  w.timings.set(label, (w.timings.get(label) ?? 0) + ms);

function addCounts(to: repo.ImportCounts, add: repo.ImportCounts) {
  to.read += add.read;
  to.created += add.created;
  to.updated += add.updated;
  to.unchanged += add.unchanged;
  to.deleted += add.deleted;
  to.rejected += add.rejected;
  to.warnings += add.warnings;
}

const zero = (): repo.ImportCounts => ({
  read: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  rejected: 0,
  warnings: 0,
});

/**
 * Statuses in which a job's import has nothing left to do (a redelivered job ends at once): Completed, Failed, and a
 * full catalogue waiting for approval (or discarded, or undone) — it ran to its end; a person decides, not a job.
 */
const hasEnded = (status: string) => !['Pending', 'InProgress'].includes(status);
