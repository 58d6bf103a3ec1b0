/** SQL of the catalogue_imports rows (status, counts, rejections). */
import {
  CATALOGUE_IMPORT_MAX_REJECTIONS,
  CATALOGUE_IMPORT_MAX_WARNINGS,
  CATALOGUE_IMPORT_UNDO_DAYS,
  CATALOGUE_IMPORT_WITHDRAW_SAMPLE,
  type CatalogueImport,
  type CatalogueImportDetails,
  type CatalogueImportPreview,
} from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';

export interface ImportCounts {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: number;
  warnings: number;
}

export async function insertImport(
  c: Queryable,
  row: { supplier: string; fileName: string; filePath: string; userId: string | null },
): Promise<number> {
  const { rows } = await c.query<{ id: string }>(
    `INSERT INTO catalogue_imports (supplier_bp_number, file_name, file_path, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
    [row.supplier, row.fileName, row.filePath, row.userId],
  );
  return Number(rows[0].id);
}

export async function findImportRow(c: Queryable, id: number) {
  const { rows } = await c.query('SELECT * FROM catalogue_imports WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** Where a crashed attempt left off: the articles of its completely committed batches and the counts up to there. */
export interface ResumePoint {
  articles: number;
  counts: ImportCounts;
  /** A full catalogue's decision at its first attempt (null: not decided yet, or not a full catalogue). */
  withdraws: boolean | null;
  /**
   * A full catalogue whose check found the withdrawal implausible before the crash: it waits for approval (its list of
   * offers to withdraw is recorded); null: not checked, or checked and applied.
   */
  preview: CatalogueImportPreview | null;
  /** The supplier had no offers when the first attempt began (undo withdraws all of its offers). */
  firstCatalogue: boolean;
}

/**
 * Starts an attempt of import `id`. An attempt after a crash resumes from the last completely committed batch (its
 * seen article numbers, staged search vectors, rejections, warnings, undo records and — once checked — its list of
 * offers to withdraw stay) — unless the database server restarted since the attempt before: its UNLOGGED stages are
 * empty then, so the import starts again from its file (idempotent upserts; products without a search row are written
 * again; undo records stay: the first is the state before the import). Returns the resume point, null for a start from
 * the beginning.
 */
export async function startAttempt(c: Queryable, id: number): Promise<ResumePoint | null> {
  const { rows } = await c.query<{
    resume_articles: number;
    resume_counts: ImportCounts | null;
    withdraws: boolean | null;
    preview: CatalogueImportPreview | null;
    first_catalogue: boolean;
    same_server: boolean;
  }>(
    `SELECT resume_articles, resume_counts, withdraws, preview, first_catalogue,
            attempt_db_start IS NOT DISTINCT FROM pg_postmaster_start_time() AS same_server
       FROM catalogue_imports WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (row && row.resume_articles > 0 && row.resume_counts && row.same_server) {
    const counts = { ...row.resume_counts, warnings: row.resume_counts.warnings ?? 0 };
    await c.query(
      `UPDATE catalogue_imports SET status = 'InProgress', finished_at = NULL, error = NULL, attempts = attempts + 1,
              started_at = COALESCE(started_at, now()),
              read_count = $2, created_count = $3, updated_count = $4, unchanged_count = $5, deleted_count = $6, rejected_count = $7,
              warning_count = $8
        WHERE id = $1`,
      [id, ...countValues(counts)],
    );
    return {
      articles: row.resume_articles,
      counts,
      withdraws: row.withdraws,
      preview: row.preview,
      firstCatalogue: row.first_catalogue,
    };
  }
  await c.query('DELETE FROM catalogue_import_rejections WHERE import_id = $1', [id]);
  await c.query('DELETE FROM catalogue_import_warnings WHERE import_id = $1', [id]);
  // The list of an attempt that crashed before it was marked waiting (its undo records stay: the first is the state
  // before the import).
  await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = $1', [id]);
  await c.query('DELETE FROM catalogue_import_seen WHERE import_id = $1', [id]);
  // Search rows staged by an attempt that crashed: their products are written again (not unchanged).
  await c.query('DELETE FROM catalogue_import_search WHERE import_id = $1', [id]);
  await c.query(
    `UPDATE catalogue_imports SET status = 'InProgress', started_at = now(), finished_at = NULL, error = NULL, attempts = attempts + 1,
            read_count = 0, created_count = 0, updated_count = 0, unchanged_count = 0, deleted_count = 0, rejected_count = 0,
            warning_count = 0, preview = NULL,
            resume_articles = 0, resume_counts = NULL, withdraws = NULL, attempt_db_start = pg_postmaster_start_time()
      WHERE id = $1`,
    [id],
  );
  return null;
}

const countValues = (k: ImportCounts) => [k.read, k.created, k.updated, k.unchanged, k.deleted, k.rejected, k.warnings];

/** The articles up to `articles` are committed completely (batch, search work, rejections): a crash resumes there. */
export async function saveResumePoint(c: Queryable, id: number, articles: number, counts: ImportCounts) {
  await c.query('UPDATE catalogue_imports SET resume_articles = $2, resume_counts = $3 WHERE id = $1', [
    id,
    articles,
    JSON.stringify(counts),
  ]);
}

/** A full catalogue's decision (records seen article numbers and withdraws), kept for a resumed attempt. */
export async function saveWithdraws(c: Queryable, id: number, withdraws: boolean) {
  await c.query('UPDATE catalogue_imports SET withdraws = $2 WHERE id = $1', [id, withdraws]);
}

/**
 * A full catalogue's check found its withdrawal implausible: the preview is kept in the transaction that records the
 * list of offers it would withdraw, so an attempt resumed after a crash before the import was marked waiting waits for
 * approval as well (and does not withdraw).
 */
export async function savePreview(c: Queryable, id: number, preview: CatalogueImportPreview) {
  await c.query('UPDATE catalogue_imports SET preview = $2 WHERE id = $1', [id, JSON.stringify(preview)]);
}

/**
 * Takes the lease of import `id` for `owner` (this process): free, run out (its process died) or already this
 * process's. False while another live process runs it.
 */
export async function claimLease(c: Queryable, id: number, owner: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await c.query(
    `UPDATE catalogue_imports SET lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND status IN ('Pending', 'InProgress')
        AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2)`,
    [id, owner, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

/** Renews the lease (heartbeat); false when another process has taken it over meanwhile. */
export async function renewLease(c: Queryable, id: number, owner: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await c.query(
    `UPDATE catalogue_imports SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND lease_owner = $2`,
    [id, owner, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

/** Gives the lease up when the run ends (a finished import needs none; a retried one is claimed again). */
export async function releaseLease(c: Queryable, id: number, owner: string) {
  await c.query(
    'UPDATE catalogue_imports SET lease_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2',
    [id, owner],
  );
}

/**
 * Unfinished imports no live process runs: their lease ran out (the process died), or they are older than
 * `pendingMs` and were never claimed (their job may have been lost with a process before it began). A full catalogue
 * waiting for approval is not unfinished: it has run to its end and waits for a person, never for the sweeper.
 */
export async function orphanedImports(c: Queryable, pendingMs: number): Promise<{ id: number; claimed: boolean }[]> {
  const { rows } = await c.query<{ id: string; claimed: boolean }>(
    `SELECT id, lease_until IS NOT NULL AS claimed FROM catalogue_imports
      WHERE status IN ('Pending', 'InProgress')
        AND (lease_until < now() OR (lease_until IS NULL AND created_at < now() - $1 * interval '1 millisecond'))
      ORDER BY id`,
    [pendingMs],
  );
  return rows.map((r) => ({ id: Number(r.id), claimed: r.claimed }));
}

/**
 * Upload paths of the imports still to run (their files must stay). A full catalogue waiting for approval needs its
 * file no more: approval withdraws its recorded list (catalogue_import_pending_withdrawals), discarding sets back its
 * undo records.
 */
export async function unfinishedImportFiles(c: Queryable): Promise<string[]> {
  const { rows } = await c.query<{ file_path: string }>(
    `SELECT file_path FROM catalogue_imports WHERE status IN ('Pending', 'InProgress')`,
  );
  return rows.map((r) => r.file_path);
}

export async function saveProgress(
  c: Queryable,
  id: number,
  counts: ImportCounts,
  header: { format: string | null; transaction: string | null },
) {
  await c.query(
    `UPDATE catalogue_imports SET read_count = $2, created_count = $3, updated_count = $4, unchanged_count = $5, deleted_count = $6,
            rejected_count = $7, format = COALESCE($8, format), transaction = COALESCE($9, transaction), warning_count = $10
      WHERE id = $1`,
    [
      id,
      counts.read,
      counts.created,
      counts.updated,
      counts.unchanged,
      counts.deleted,
      counts.rejected,
      header.format,
      header.transaction,
      counts.warnings,
    ],
  );
}

/**
 * Stores a batch's warnings, at most the first 1,000 of the import (by arrival: a catalogue's batches are written in
 * file order). A product may have several; they are numbered per position.
 */
export async function saveWarnings(
  c: Queryable,
  id: number,
  warnings: { position: number; productId: string | null; reason: string }[],
) {
  if (!warnings.length) return;
  const seq = new Map<number, number>();
  const numbered = warnings.map((w) => {
    const n = (seq.get(w.position) ?? 0) + 1;
    seq.set(w.position, n);
    return { ...w, seq: n };
  });
  await c.query(
    `INSERT INTO catalogue_import_warnings (import_id, position, seq, product_id, reason)
     SELECT $1, t.position, t.seq, t.product_id, t.reason
       FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS t(position, seq, product_id, reason, n)
      WHERE t.n <= $6 - (SELECT count(*) FROM catalogue_import_warnings WHERE import_id = $1)
     ON CONFLICT DO NOTHING`,
    [
      id,
      numbered.map((w) => w.position),
      numbered.map((w) => w.seq),
      numbered.map((w) => w.productId),
      numbered.map((w) => w.reason),
      CATALOGUE_IMPORT_MAX_WARNINGS,
    ],
  );
}

/** The import stops before it withdraws: the preview of its plausibility check. */
export async function awaitApproval(c: Queryable, id: number, preview: CatalogueImportPreview) {
  await c.query(
    `UPDATE catalogue_imports SET status = 'AwaitingApproval', preview = $2, finished_at = now() WHERE id = $1`,
    [id, JSON.stringify(preview)],
  );
}

/**
 * A newer import of the supplier replaces a full catalogue still waiting for approval: its withdrawal is dropped (what
 * its batches wrote stays; the newer file decides from now on), and it ends Discarded with that reason.
 */
export async function supersedeWaitingImports(c: Queryable, supplier: string, id: number, reason: string) {
  const { rows } = await c.query<{ id: string }>(
    `UPDATE catalogue_imports SET status = 'Discarded', error = $3
      WHERE supplier_bp_number = $1 AND id < $2 AND status = 'AwaitingApproval' RETURNING id`,
    [supplier, id, reason],
  );
  if (rows.length)
    await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = ANY($1::bigint[])', [
      rows.map((r) => r.id),
    ]);
}

/** The list of offers a full catalogue would withdraw is dropped (the import failed, or was replaced). */
export async function dropPendingWithdrawals(c: Queryable, id: number) {
  await c.query('DELETE FROM catalogue_import_pending_withdrawals WHERE import_id = $1', [id]);
}

/** The supplier had no offers when the import began (undo then withdraws every offer of the supplier it wrote). */
export async function markFirstCatalogue(c: Queryable, id: number) {
  await c.query('UPDATE catalogue_imports SET first_catalogue = true WHERE id = $1', [id]);
}

/**
 * Stores a batch's rejections so that the import keeps its first 1,000 by position in the file: at most that many of
 * the batch, then any beyond the 1,000th position stored are removed. Batches may be stored out of order (a price
 * update merges two at once), so a later batch's rejections can give way to an earlier one's.
 */
export async function saveRejections(
  c: Queryable,
  id: number,
  rejections: { position: number; productId: string | null; reason: string }[],
) {
  if (!rejections.length) return;
  const first = [...rejections].sort((a, b) => a.position - b.position).slice(0, CATALOGUE_IMPORT_MAX_REJECTIONS);
  await c.query(
    `INSERT INTO catalogue_import_rejections (import_id, position, product_id, reason)
     SELECT $1, t.position, t.product_id, t.reason FROM unnest($2::int[], $3::text[], $4::text[]) AS t(position, product_id, reason)
      WHERE t.position < COALESCE((SELECT position FROM catalogue_import_rejections WHERE import_id = $1
                                    ORDER BY position OFFSET $5 - 1 LIMIT 1), 2147483647)
     ON CONFLICT DO NOTHING`,
    [
      id,
      first.map((r) => r.position),
      first.map((r) => r.productId),
      first.map((r) => r.reason),
      CATALOGUE_IMPORT_MAX_REJECTIONS,
    ],
  );
  await c.query(
    `DELETE FROM catalogue_import_rejections
      WHERE import_id = $1
        AND position > (SELECT position FROM catalogue_import_rejections WHERE import_id = $1
                         ORDER BY position OFFSET $2 - 1 LIMIT 1)`,
    [id, CATALOGUE_IMPORT_MAX_REJECTIONS],
  );
}

export async function finishImport(c: Queryable, id: number, status: 'Completed' | 'Failed', error: string | null) {
  await c.query(`UPDATE catalogue_imports SET status = $2, error = $3, finished_at = now() WHERE id = $1`, [
    id,
    status,
    error,
  ]);
}

/**
 * An import's row with the names of who started, approved and reverted it, and whether a later import of the supplier
 * has changed (or may change) the catalogue since: then it can no longer be approved, discarded or undone.
 */
const IMPORT_SELECT = `
  SELECT i.*, ${userName('s')} AS started_name, ${userName('a')} AS approved_name, ${userName('r')} AS reverted_name,
         EXISTS (SELECT 1 FROM catalogue_imports n WHERE n.supplier_bp_number = i.supplier_bp_number AND n.id > i.id
                    AND n.status IN ('Pending', 'InProgress', 'AwaitingApproval', 'Completed')) AS superseded
    FROM catalogue_imports i
    LEFT JOIN users s ON s.id = i.created_by LEFT JOIN users a ON a.id = i.approved_by LEFT JOIN users r ON r.id = i.reverted_by`;
function userName(alias: string) {
  return `NULLIF(trim(concat_ws(' ', ${alias}.first_name, ${alias}.last_name)), '')`;
}

export async function listImports(c: Queryable, supplier: string, limit = 50): Promise<CatalogueImport[]> {
  const { rows } = await c.query(`${IMPORT_SELECT} WHERE i.supplier_bp_number = $1 ORDER BY i.id DESC LIMIT $2`, [
    supplier,
    limit,
  ]);
  return rows.map(toImport);
}

/** The import row of the supplier, locked for the approval or undo (null: none). */
export async function findImportForUpdate(c: Queryable, supplier: string, id: number) {
  const { rows } = await c.query(`${IMPORT_SELECT} WHERE i.id = $1 AND i.supplier_bp_number = $2 FOR UPDATE OF i`, [
    id,
    supplier,
  ]);
  return rows[0] ? { row: rows[0] as ImportRow, view: toImport(rows[0]) } : null;
}

export async function importDetails(
  c: Queryable,
  supplier: string,
  id: number,
): Promise<CatalogueImportDetails | null> {
  const { rows } = await c.query<ImportRow>(`${IMPORT_SELECT} WHERE i.id = $1 AND i.supplier_bp_number = $2`, [
    id,
    supplier,
  ]);
  if (!rows[0]) return null;
  const [rejections, warnings, sample] = await Promise.all([
    importRejections(c, id),
    importWarnings(c, id),
    c.query<{ supplier_pid: string; product_name: string | null }>(
      `SELECT w.supplier_pid, p.product_name FROM catalogue_import_pending_withdrawals w
         LEFT JOIN product_offers o ON o.supplier_bp_number = $2 AND o.supplier_pid = w.supplier_pid
         LEFT JOIN products p ON p.id = o.product_no
        WHERE w.import_id = $1 ORDER BY w.supplier_pid LIMIT $3`,
      [id, supplier, CATALOGUE_IMPORT_WITHDRAW_SAMPLE],
    ),
  ]);
  return {
    ...toImport(rows[0]),
    rejections,
    warnings,
    withdrawSample: sample.rows.map((r) => ({ productId: r.supplier_pid, name: r.product_name })),
  };
}

/** The import's first 1,000 rejections, by position in the file. */
export async function importRejections(c: Queryable, id: number) {
  const { rows } = await c.query(
    'SELECT position, product_id, reason FROM catalogue_import_rejections WHERE import_id = $1 ORDER BY position LIMIT $2',
    [id, CATALOGUE_IMPORT_MAX_REJECTIONS],
  );
  return rows.map((r) => ({
    position: r.position as number,
    productId: r.product_id as string | null,
    reason: r.reason as string,
  }));
}

/** The import's first 1,000 warnings, by position in the file. */
export async function importWarnings(c: Queryable, id: number) {
  const { rows } = await c.query(
    'SELECT position, product_id, reason FROM catalogue_import_warnings WHERE import_id = $1 ORDER BY position, seq LIMIT $2',
    [id, CATALOGUE_IMPORT_MAX_WARNINGS],
  );
  return rows.map((r) => ({
    position: r.position as number,
    productId: r.product_id as string | null,
    reason: r.reason as string,
  }));
}

interface ImportRow {
  id: string;
  supplier_bp_number: string;
  file_name: string;
  format: string | null;
  transaction: string | null;
  status: CatalogueImport['status'];
  read_count: number;
  created_count: number;
  updated_count: number;
  unchanged_count: number;
  deleted_count: number;
  rejected_count: number;
  warning_count: number;
  error: string | null;
  preview: CatalogueImportPreview | null;
  created_by: string | null;
  approved_by: string | null;
  approved_at: Date | null;
  reverted_by: string | null;
  reverted_at: Date | null;
  first_catalogue: boolean;
  started_name: string | null;
  approved_name: string | null;
  reverted_name: string | null;
  superseded: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** Imports that write offers can be undone (a price update is not recorded for undo). */
const UNDOABLE_TRANSACTIONS = new Set(['T_NEW_CATALOG', 'T_UPDATE_PRODUCTS']);

/** Until when an applied import can be undone: the supplier's latest, within 30 days of its end; else null. */
function undoableUntil(r: ImportRow): Date | null {
  if (r.status !== 'Completed' || !r.finished_at || r.superseded || !UNDOABLE_TRANSACTIONS.has(r.transaction ?? ''))
    return null;
  const until = new Date(new Date(r.finished_at).getTime() + CATALOGUE_IMPORT_UNDO_DAYS * 86_400_000);
  return until.getTime() > Date.now() ? until : null;
}

export type ImportRowView = ImportRow;

function toImport(r: ImportRow): CatalogueImport {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  const user = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);
  return {
    id: Number(r.id),
    supplierBusinessPartnerNo: r.supplier_bp_number,
    fileName: r.file_name,
    format: r.format,
    transaction: r.transaction,
    status: r.status,
    counts: {
      read: r.read_count,
      created: r.created_count,
      updated: r.updated_count,
      unchanged: r.unchanged_count,
      deleted: r.deleted_count,
      rejected: r.rejected_count,
      warnings: r.warning_count,
    },
    error: r.error,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    durationMs:
      r.started_at && r.finished_at ? new Date(r.finished_at).getTime() - new Date(r.started_at).getTime() : null,
    preview: r.preview ?? null,
    startedBy: user(r.created_by, r.started_name),
    approvedBy: user(r.approved_by, r.approved_name),
    approvedAt: iso(r.approved_at),
    revertedBy: user(r.reverted_by, r.reverted_name),
    revertedAt: iso(r.reverted_at),
    undoableUntil: iso(undoableUntil(r)),
  };
}

export async function supplierExists(c: Queryable, supplier: string): Promise<boolean> {
  const { rows } = await c.query('SELECT 1 FROM suppliers WHERE bp_number = $1', [supplier]);
  return rows.length > 0;
}

/** The supplier's integration columns, its last import and whether one is pending or running (no row: no supplier). */
export async function findIntegrationRow(c: Queryable, supplier: string) {
  const { rows } = await c.query(
    `SELECT s.integration_status, s.integration_provider, s.product_data_source,
            i.id, i.status, i.finished_at, i.format, i.transaction,
            EXISTS (SELECT 1 FROM catalogue_imports r WHERE r.supplier_bp_number = s.bp_number AND r.status IN ('Pending', 'InProgress')) AS running
       FROM suppliers s
       LEFT JOIN LATERAL (SELECT * FROM catalogue_imports r WHERE r.supplier_bp_number = s.bp_number ORDER BY r.id DESC LIMIT 1) i ON true
      WHERE s.bp_number = $1`,
    [supplier],
  );
  return rows[0];
}

/** The size of the supplier's stored medium with this content hash (catalogue_media_files); null when not stored. */
export async function findMediaFile(c: Queryable, supplier: string, sha256: string) {
  const { rows } = await c.query<{ size_bytes: string }>(
    'SELECT size_bytes FROM catalogue_media_files WHERE supplier_bp_number = $1 AND sha256 = $2',
    [supplier, sha256],
  );
  return rows[0] ?? null;
}

export async function insertMediaFile(
  c: Queryable,
  file: { supplier: string; sha256: string; contentType: string; size: number },
) {
  await c.query(
    `INSERT INTO catalogue_media_files (supplier_bp_number, sha256, content_type, size_bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [file.supplier, file.sha256, file.contentType, file.size],
  );
}

/** Serialises the storage quota check of a supplier's media (until the transaction ends). */
export async function lockSupplierStorage(c: Queryable, supplier: string) {
  await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`media-quota:${supplier}`]);
}
