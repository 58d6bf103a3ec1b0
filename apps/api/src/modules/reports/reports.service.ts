import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  FeatureSettingKey,
  ReportGenerationStatus,
  reportTexts,
  reportTypeNames,
  type GenerateReportRequest,
  type ReportType,
} from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import type { AppConfig } from '../../config.ts';
import { conflict, notFound } from '../../http/problem.ts';
import { inTransaction } from '../../db/pool.ts';
import { readNumberSetting } from '../settings/index.ts';
import { generateFileInWorker } from './report-thread.ts';
import * as repo from './reports.repo.ts';
import { fileStorage } from '../storage/index.ts';

export const REPORT_QUEUE = 'report.generate';
/** Attempts before a report is marked Failed (pg-boss retries in between). */
export const REPORT_MAX_ATTEMPTS = 3;
/** Reason of a report whose last attempt died (the process was killed or crashed). */
const abandonedText = 'Die Erzeugung wurde mehrmals abgebrochen.';

export interface ReportWorkerOptions {
  /** A report in progress whose worker did not renew its lease within this time is retried. */
  leaseMs: number;
  /** How often unfinished reports without a live worker or job are looked for. */
  sweepEveryMs: number;
}

/** The lease and sweep of the configuration (REPORT_LEASE_MS, REPORT_SWEEP_MS). */
export const reportWorkerOptionsOf = (config: AppConfig): ReportWorkerOptions => config.reports;

const jobOptions = {
  retryLimit: REPORT_MAX_ATTEMPTS - 1,
  retryDelay: 2,
  retryBackoff: false,
  expireInSeconds: 15 * 60,
};

/** This machine's working directory of reports being written (the finished file goes to the file storage). */
export const reportsDir = (dataDir: string) => path.join(dataDir, 'reports');
/** The storage key of a report's finished file. */
export const reportKey = (storedAs: string) => `reports/${storedAs}`;

export function reportFileName(r: { reportTypeId: number; startDate: string; endDate: string; format: string }) {
  const name = reportTypeNames[r.reportTypeId as ReportType].replace(/[^\p{L}\p{N}]+/gu, '-');
  return `${name}_${r.startDate}_${r.endDate}.${r.format}`;
}

export class ReportsService {
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'pool' | 'jobs' | 'config'>,
    private readonly options: ReportWorkerOptions = reportWorkerOptionsOf(deps.config),
    private readonly log: { error: (...a: unknown[]) => void; info: (...a: unknown[]) => void } = console,
  ) {}

  /** This process generates reports: registers the job handler (before the jobs start). */
  registerWorker() {
    this.deps.jobs.register<{ reportId: number }>(REPORT_QUEUE, (data) => this.run(data.reportId));
  }

  /** Looks for reports whose worker died, at once and then periodically (after the jobs started). */
  startSweeper() {
    if (this.sweepTimer) return;
    const sweep = () => this.sweep().catch((err) => this.log.error({ err }, 'report sweeper failed'));
    void sweep();
    this.sweepTimer = setInterval(sweep, this.options.sweepEveryMs);
    this.sweepTimer.unref();
  }

  stopSweeper() {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  /**
   * A worker that crashes mid-report leaves its pg-boss job active until pg-boss's expiry (15 minutes);
   * the report's lease runs out much sooner. Such a report is queued again (or, after its last attempt,
   * failed with a reason), so the user waits about one lease, not a quarter of an hour.
   */
  async sweep() {
    const stale = await repo.staleReports(this.deps.pool, this.options.leaseMs);
    if (!stale.length) return;
    // A job waiting for its (retry) turn will claim the report anyway; an active one is the dead worker's.
    const queued = await this.deps.jobs.liveJobKeys(
      REPORT_QUEUE,
      'reportId',
      stale.map((r) => r.id),
      ['created', 'retry'],
    );
    for (const r of stale) {
      if (queued.has(String(r.id))) continue;
      if (r.attempts >= REPORT_MAX_ATTEMPTS)
        await repo.abandonReport(this.deps.pool, r.id, r.attempts, `${reportTexts.generateFailed} ${abandonedText}`);
      else {
        await this.deps.jobs.send(REPORT_QUEUE, { reportId: r.id }, jobOptions);
        this.log.info(`report ${r.id}: no live worker, queued again`);
      }
    }
  }

  /** The report row and its job commit together; a second request while one is unfinished is a 409. */
  async generate(userId: string, body: GenerateReportRequest) {
    const report = await inTransaction(this.deps.db, async (tx) => {
      await repo.lockUser(tx.$client, userId);
      if (await repo.hasUnfinished(tx.$client, userId)) throw conflict(reportTexts.pending);
      const created = await repo.insertReport(tx.$client, {
        userId,
        reportTypeId: body.reportType,
        format: body.format,
        startDate: body.startDate,
        endDate: body.endDate,
      });
      // A large report may take minutes: the job does not expire early; a crashed worker is detected by
      // the report's lease instead (sweep).
      await this.deps.jobs.sendInTransaction(tx.$client, REPORT_QUEUE, { reportId: created.id }, jobOptions);
      return created;
    });
    return report;
  }

  list(userId: string, page: number, pageSize: number) {
    return repo.listReports(this.deps.pool, userId, page, pageSize).then(({ items, total }) => ({
      items,
      currentPage: page,
      pageSize,
      totalCount: total,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
    }));
  }

  /** The file of a completed report of this user; anything else is a 404. */
  async download(userId: string, id: number) {
    const report = await repo.reportOfUser(this.deps.pool, id, userId);
    if (!report || report.statusId !== ReportGenerationStatus.Completed || !report.storedAs)
      throw notFound('Bericht nicht gefunden');
    // Any node serves it: the file is in the shared file storage (STORAGE_BACKEND=postgres) or this DATA_DIR.
    const file = await fileStorage(this.deps).get(reportKey(report.storedAs));
    if (!file) throw notFound('Die Berichtsdatei ist nicht mehr vorhanden');
    return { file, fileName: report.fileName ?? reportFileName(report), format: report.format };
  }

  /**
   * The job: claim with a lease, write to a temporary file while renewing the lease, rename, complete.
   * Never completes a report twice; an attempt that lost its lease (a newer one took over) stops.
   */
  async run(reportId: number) {
    await this.removeExpired();
    const { leaseMs } = this.options;
    const report = await repo.claimReport(this.deps.pool, reportId, leaseMs);
    if (!report) return;
    const attempt = report.attempts;
    // A lost lease (a newer attempt took over) stops this attempt's worker thread.
    const lease = new AbortController();
    const heartbeat = setInterval(
      () =>
        repo
          .renewLease(this.deps.pool, report.id, attempt, leaseMs)
          .then((held) => {
            if (!held) lease.abort();
          })
          .catch((err) => this.log.error({ err }, `report ${report.id}: lease not renewed`)),
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    const dir = reportsDir(this.deps.config.dataDir);
    const storedAs = `${report.id}-${randomUUID()}.${report.format}`;
    const tmp = path.join(dir, `${storedAs}.part`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      removeStaleParts(dir, report.id);
      // The file is written in a worker thread with a capped heap, so a report of a million rows does not
      // grow the API's memory; the thread reads the rows through its own connection and cursor.
      const rowCount = await generateFileInWorker(
        {
          connection: { connectionString: this.deps.pool.options.connectionString },
          reportTypeId: report.reportTypeId,
          format: report.format,
          startDate: report.startDate,
          endDate: report.endDate,
          file: tmp,
        },
        lease.signal,
        this.deps.config.reports.threadHeapMb,
      );
      if (lease.signal.aborted) throw new LeaseLostError();
      await fileStorage(this.deps).put(reportKey(storedAs), fs.createReadStream(tmp));
      removeQuietly(tmp);
      const retentionDays = await readNumberSetting(this.deps.db, FeatureSettingKey.ReportRetentionDays);
      const completed = await repo.completeReport(this.deps.pool, report.id, attempt, {
        fileName: reportFileName(report),
        storedAs,
        rowCount,
        retentionDays: Number.isFinite(retentionDays) && retentionDays > 0 ? retentionDays : 30,
      });
      if (!completed) await fileStorage(this.deps).delete(reportKey(storedAs));
    } catch (error) {
      removeQuietly(tmp);
      if (lease.signal.aborted || error instanceof LeaseLostError) return; // the newer attempt decides
      if (attempt >= REPORT_MAX_ATTEMPTS) {
        await repo.failReport(this.deps.pool, report.id, `${reportTexts.generateFailed} ${failureText(error)}`);
        return;
      }
      await repo.releaseReport(this.deps.pool, report.id, attempt);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  async removeExpired() {
    const files = await repo.deleteExpired(this.deps.pool);
    for (const f of files) await fileStorage(this.deps).delete(reportKey(f));
  }
}

class LeaseLostError extends Error {}

/** Temporary files of earlier attempts of this report (a killed worker cannot remove its own). */
function removeStaleParts(dir: string, reportId: number) {
  for (const name of fs.readdirSync(dir))
    if (name.startsWith(`${reportId}-`) && name.endsWith('.part')) removeQuietly(path.join(dir, name));
}

function removeQuietly(file: string) {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // the directory itself may be what failed; the failure is recorded by the caller
  }
}

function failureText(error: unknown): string {
  const code = (error as { code?: string })?.code;
  if (code === 'ENOSPC') return 'Kein Speicherplatz verfügbar.';
  if (code === 'EACCES' || code === 'EPERM' || code === 'ENOTDIR' || code === 'EEXIST')
    return 'Die Berichtsdatei konnte nicht gespeichert werden.';
  if (code && /^[0-9A-Z]{5}$/.test(code)) return 'Die Datenbankabfrage ist fehlgeschlagen.';
  return 'Unerwarteter Fehler.';
}
