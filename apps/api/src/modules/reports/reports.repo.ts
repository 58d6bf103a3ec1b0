import type pg from 'pg';
import type { Report, ReportFormat } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import { SqlWhere } from '../../db/sql-params.ts';

export interface ReportRow {
  id: number;
  userId: string;
  reportTypeId: number;
  format: ReportFormat;
  startDate: string;
  endDate: string;
  statusId: number;
  attempts: number;
  storedAs: string | null;
  fileName: string | null;
}

const columns = `id::int, user_id, report_type_id, format, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, created_at, status_id, failure_reason, file_name, row_count::float8,
  attempts, stored_as`;

interface DbReport {
  id: number;
  user_id: string;
  report_type_id: number;
  format: ReportFormat;
  start_date: string;
  end_date: string;
  created_at: Date;
  status_id: number;
  failure_reason: string | null;
  file_name: string | null;
  row_count: number | null;
  attempts: number;
  stored_as: string | null;
}

const toReport = (r: DbReport): Report => ({
  id: r.id,
  reportTypeId: r.report_type_id,
  format: r.format,
  startDate: r.start_date,
  endDate: r.end_date,
  dateCreated: r.created_at.toISOString(),
  reportGenerationStatusId: r.status_id,
  failureReason: r.failure_reason,
  fileName: r.file_name,
  rowCount: r.row_count,
});

const toRow = (r: DbReport): ReportRow => ({
  id: r.id,
  userId: r.user_id,
  reportTypeId: r.report_type_id,
  format: r.format,
  startDate: r.start_date,
  endDate: r.end_date,
  statusId: r.status_id,
  attempts: r.attempts,
  storedAs: r.stored_as,
  fileName: r.file_name,
});

/** Serialises generation requests of one user so that "nothing pending" holds under double clicks. */
export async function lockUser(client: pg.PoolClient, userId: string) {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('report:' || $1))`, [userId]);
}

export async function hasUnfinished(client: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM reports WHERE user_id = $1 AND status_id IN (1, 2) LIMIT 1', [
    userId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function insertReport(
  client: Queryable,
  r: { userId: string; reportTypeId: number; format: ReportFormat; startDate: string; endDate: string },
): Promise<Report> {
  const { rows } = await client.query<DbReport>(
    `INSERT INTO reports (user_id, report_type_id, format, start_date, end_date) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${columns}`,
    [r.userId, r.reportTypeId, r.format, r.startDate, r.endDate],
  );
  return toReport(rows[0]);
}

export async function listReports(client: Queryable, userId: string, page: number, pageSize: number) {
  const where = new SqlWhere().and('user_id = ?', userId);
  const paging = where.page(page, pageSize);
  const { rows } = await client.query<DbReport & { total: number }>(
    `SELECT ${columns}, count(*) OVER ()::int AS total FROM reports ${where.sql}
      ORDER BY created_at DESC, id DESC ${paging.sql}`,
    paging.values,
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && page > 1) {
    const c = await client.query(`SELECT count(*)::int AS n FROM reports ${where.sql}`, where.values);
    total = c.rows[0].n;
  }
  return { items: rows.map(toReport), total };
}

export async function reportOfUser(client: Queryable, id: number, userId: string): Promise<ReportRow | null> {
  const { rows } = await client.query<DbReport>(`SELECT ${columns} FROM reports WHERE id = $1 AND user_id = $2`, [
    id,
    userId,
  ]);
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Claims a report for generation with a lease; null when it is finished (a duplicate delivery of the job)
 * or another worker holds a live lease on it. `attempts` after the claim identifies this attempt.
 */
export async function claimReport(client: Queryable, id: number, leaseMs: number): Promise<ReportRow | null> {
  const { rows } = await client.query<DbReport>(
    `UPDATE reports SET status_id = 2, started_at = now(), attempts = attempts + 1,
            lease_until = now() + make_interval(secs => $2 / 1000.0)
      WHERE id = $1 AND (status_id = 1 OR (status_id = 2 AND (lease_until IS NULL OR lease_until < now())))
      RETURNING ${columns}`,
    [id, leaseMs],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Heartbeat of a running attempt; false when the lease was lost (a newer attempt claimed the report). */
export async function renewLease(client: Queryable, id: number, attempt: number, leaseMs: number): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE reports SET lease_until = now() + make_interval(secs => $3 / 1000.0)
      WHERE id = $1 AND status_id = 2 AND attempts = $2`,
    [id, attempt, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

/** A failed attempt gives the report back at once, so pg-boss's retry can claim it. */
export async function releaseReport(client: Queryable, id: number, attempt: number) {
  await client.query('UPDATE reports SET lease_until = NULL WHERE id = $1 AND status_id = 2 AND attempts = $2', [
    id,
    attempt,
  ]);
}

/** False when this attempt no longer holds the report (its file is then not used). */
export async function completeReport(
  client: Queryable,
  id: number,
  attempt: number,
  r: { fileName: string; storedAs: string; rowCount: number; retentionDays: number },
): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE reports SET status_id = 3, file_name = $2, stored_as = $3, row_count = $4, finished_at = now(),
            failure_reason = NULL, expires_at = now() + make_interval(days => $5), lease_until = NULL
      WHERE id = $1 AND status_id = 2 AND attempts = $6`,
    [id, r.fileName, r.storedAs, r.rowCount, r.retentionDays, attempt],
  );
  return (rowCount ?? 0) > 0;
}

export async function failReport(client: Queryable, id: number, reason: string) {
  await client.query(
    `UPDATE reports SET status_id = 4, failure_reason = $2, finished_at = now(), lease_until = NULL
      WHERE id = $1 AND status_id IN (1, 2)`,
    [id, reason],
  );
}

/** Fails a report whose last attempt died (lease expired, nobody claimed it since). */
export async function abandonReport(client: Queryable, id: number, attempt: number, reason: string) {
  await client.query(
    `UPDATE reports SET status_id = 4, failure_reason = $3, finished_at = now(), lease_until = NULL
      WHERE id = $1 AND status_id = 2 AND attempts = $2 AND (lease_until IS NULL OR lease_until < now())`,
    [id, attempt, reason],
  );
}

/**
 * Unfinished reports nobody works on: in progress with an expired lease (the worker died), or pending
 * (or released after a failed attempt) for longer than a lease. The sweeper queues them again.
 */
export async function staleReports(client: Queryable, leaseMs: number): Promise<{ id: number; attempts: number }[]> {
  const { rows } = await client.query<{ id: number; attempts: number }>(
    `SELECT id::int, attempts FROM reports
      WHERE status_id IN (1, 2)
        AND COALESCE(lease_until, COALESCE(started_at, created_at) + make_interval(secs => $1 / 1000.0)) < now()
      ORDER BY id LIMIT 100`,
    [leaseMs],
  );
  return rows;
}

/** Removes expired reports and returns the files to delete. */
export async function deleteExpired(client: Queryable): Promise<string[]> {
  const { rows } = await client.query<{ stored_as: string | null }>(
    'DELETE FROM reports WHERE expires_at < now() RETURNING stored_as',
  );
  return rows.map((r) => r.stored_as).filter((s): s is string => !!s);
}

/** A search without hits (the report 'Suchbegriffe ohne Treffer'), asked at `at`. */
export interface ZeroHitSearch {
  term: string;
  userId: string | null;
  bpNumber: string | null;
  filters: unknown[];
  at: Date;
}

/** Searches without hits, in one statement. */
export async function insertZeroHitSearches(client: Queryable, searches: ZeroHitSearch[]): Promise<void> {
  await client.query(
    `INSERT INTO search_zero_hits (term, user_id, bp_number, filters, created_at)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::jsonb[], $5::timestamptz[])`,
    [
      searches.map((s) => s.term),
      searches.map((s) => s.userId),
      searches.map((s) => s.bpNumber),
      searches.map((s) => JSON.stringify(s.filters)),
      searches.map((s) => s.at.toISOString()),
    ],
  );
}
