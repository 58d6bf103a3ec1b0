import type pg from 'pg';
import type { DashboardGrouping } from '@shk/contracts';
import { clientOutsidePool } from '../../db/pool.ts';
import { SqlWhere } from '../../db/sql-params.ts';
import { addDays, splitByMonths } from './periods.ts';

export interface RollupFilter {
  start: string;
  end: string;
  /** Start of the comparison range; rows before start and from here on are summed as "previous". */
  previousStart: string;
  grouping: DashboardGrouping;
  supplierBpNumber?: string;
  statusId?: number;
}

export interface RollupRow {
  /** null: the previous range */
  period: string | null;
  count: number;
  netSum: number;
  reached: number;
  slaMet: number;
}

/**
 * The rollup rows of a set of days as one relation (day, supplier_bp_number, status_id, sums): whole
 * months from supplier_order_monthly (keyed by their first day), the remaining days from
 * supplier_order_daily, both under the conditions of `where` (on the rollup table aliased x). `months` and the day
 * ranges are bound as parameters after the values `where` holds so far.
 */
function rollupSource(where: SqlWhere, months: string[], days: [string, string][]) {
  const m = where.add(months);
  const [a, b] = [where.add(days.map((d) => d[0])), where.add(days.map((d) => d[1]))];
  const filter = where.conditionSql;
  return `(SELECT x.month AS day, x.supplier_bp_number, x.status_id, x.order_count, x.net_sum, x.reached_count,
                  x.sla_met_count
             FROM supplier_order_monthly x WHERE x.month = ANY(${m}::date[]) AND ${filter}
           UNION ALL
           SELECT x.day, x.supplier_bp_number, x.status_id, x.order_count, x.net_sum, x.reached_count, x.sla_met_count
             FROM unnest(${a}::date[], ${b}::date[]) AS r(first_day, last_day)
             JOIN supplier_order_daily x ON x.day BETWEEN r.first_day AND r.last_day AND ${filter})`;
}

/** Supplier and status conditions on the rollup table aliased x. */
function rollupFilter(where: SqlWhere, f: { supplierBpNumber?: string; statusId?: number }) {
  if (f.supplierBpNumber) where.and('x.supplier_bp_number = ?', f.supplierBpNumber);
  if (f.statusId) where.and('x.status_id = ?', f.statusId);
}

/**
 * Sums of the rollup per period of [start, end] plus one row (period null) for the previous range.
 * Whole months come from the monthly rollup where the grouping allows it (month, year; always for the
 * previous range, which is only summed), the rest day by day.
 */
export async function readRollup(client: pg.PoolClient | pg.Pool, f: RollupFilter): Promise<RollupRow[]> {
  const where = new SqlWhere();
  const [start, grouping] = [where.add(f.start), where.add(f.grouping)];
  rollupFilter(where, f);
  const previous = splitByMonths(f.previousStart, addDays(f.start, -1));
  const current =
    f.grouping === 'month' || f.grouping === 'year'
      ? splitByMonths(f.start, f.end)
      : { months: [], days: [[f.start, f.end]] as [string, string][] };
  const source = rollupSource(where, [...previous.months, ...current.months], [...previous.days, ...current.days]);
  const { rows } = await client.query(
    `SELECT CASE WHEN day >= ${start} THEN to_char(date_trunc(${grouping}, day::timestamp), 'YYYY-MM-DD') END AS period,
            sum(order_count)::float8 AS count, sum(net_sum)::float8 AS net_sum,
            sum(reached_count)::float8 AS reached, sum(sla_met_count)::float8 AS sla_met
       FROM ${source} r
      GROUP BY 1`,
    where.values,
  );
  return rows.map((r) => ({
    period: r.period,
    count: r.count,
    netSum: r.net_sum,
    reached: r.reached,
    slaMet: r.sla_met,
  }));
}

export interface SupplierTotalsRow {
  bpNumber: string;
  name: string;
  count: number;
  netSum: number;
  reached: number;
  slaMet: number;
}

export async function readTopSuppliers(
  client: pg.PoolClient | pg.Pool,
  f: { start: string; end: string; statusId?: number; limit: number },
): Promise<SupplierTotalsRow[]> {
  const where = new SqlWhere();
  const limit = where.add(f.limit);
  rollupFilter(where, { statusId: f.statusId });
  const { months, days } = splitByMonths(f.start, f.end);
  const source = rollupSource(where, months, days);
  const { rows } = await client.query(
    `SELECT t.supplier_bp_number AS bp_number, COALESCE(bp.name, t.supplier_bp_number) AS name,
            t.count, t.net_sum, t.reached, t.sla_met
       FROM (SELECT d.supplier_bp_number, sum(d.order_count)::float8 AS count, sum(d.net_sum)::float8 AS net_sum,
                    sum(d.reached_count)::float8 AS reached, sum(d.sla_met_count)::float8 AS sla_met
               FROM ${source} d
              GROUP BY 1 HAVING sum(d.order_count) > 0
              ORDER BY net_sum DESC, 1 LIMIT ${limit}) t
       LEFT JOIN business_partners bp ON bp.bp_number = t.supplier_bp_number
      ORDER BY t.net_sum DESC, t.supplier_bp_number`,
    where.values,
  );
  return rows.map((r) => ({
    bpNumber: r.bp_number,
    name: r.name,
    count: r.count,
    netSum: r.net_sum,
    reached: r.reached,
    slaMet: r.sla_met,
  }));
}

export async function supplierExists(client: pg.PoolClient | pg.Pool, bpNumber: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM suppliers WHERE bp_number = $1', [bpNumber]);
  return (rowCount ?? 0) > 0;
}

/** The window the rollup's sla_met_count holds and the parameter's current value (null: unset). */
export async function readWindows(client: pg.PoolClient | pg.Pool, key: string) {
  const { rows } = await client.query<{ rollup: number; configured: string | null }>(
    `SELECT (SELECT sla_window_hours FROM dashboard_state WHERE id = 1) AS rollup,
            (SELECT v.value FROM custom_parameter_values v
              WHERE v.key = $1
                AND (v.valid_from IS NULL OR v.valid_from <= (now() AT TIME ZONE 'Europe/Berlin')::date)
                AND (v.valid_to IS NULL OR v.valid_to >= (now() AT TIME ZONE 'Europe/Berlin')::date)
              ORDER BY v.id LIMIT 1) AS configured`,
    [key],
  );
  return rows[0];
}

/**
 * Recomputes the SLA numerator of the whole rollup for a new window. The EXCLUSIVE lock on the pending deltas
 * (migration 0185) waits for running order transactions (their triggers used the old window; they move their
 * deltas into the daily rollup when they commit) and holds new ones until the new window is stored, so no order is
 * counted with the wrong window. The pending table first, then the daily one: the order a committing order
 * transaction takes them in.
 */
export async function rebuildSlaColumn(client: pg.PoolClient, windowHours: number) {
  await client.query('BEGIN');
  try {
    await client.query('LOCK TABLE supplier_order_rollup_pending IN EXCLUSIVE MODE');
    await client.query('LOCK TABLE supplier_order_daily IN EXCLUSIVE MODE');
    const { rows } = await client.query('SELECT sla_window_hours FROM dashboard_state WHERE id = 1 FOR UPDATE');
    if (rows[0]?.sla_window_hours !== windowHours) {
      await client.query('UPDATE dashboard_state SET sla_window_hours = $1 WHERE id = 1', [windowHours]);
      await client.query('UPDATE supplier_order_daily SET sla_met_count = 0 WHERE sla_met_count <> 0');
      // A key's count goes into the first of its slots (migration 0540); the dashboard sums the slots.
      await client.query(
        `UPDATE supplier_order_daily d SET sla_met_count = m.met
           FROM (SELECT supplier_order_rollup_key_day(placed_at) AS day, supplier_bp_number, status_id,
                        sum(supplier_order_sla_met(status_id, placed_at, sent_at, confirmed_at, $1)) AS met
                   FROM supplier_orders
                  WHERE NOT is_test AND status_id IN (4, 5)
                  GROUP BY 1, 2, 3) m
          WHERE d.day = m.day AND d.supplier_bp_number = m.supplier_bp_number AND d.status_id = m.status_id
            AND d.slot = (SELECT min(x.slot) FROM supplier_order_daily x
                           WHERE x.day = d.day AND x.supplier_bp_number = d.supplier_bp_number AND x.status_id = d.status_id)`,
        [windowHours],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/**
 * A connection of its own for the figures. They read a few hundred rollup rows: parallel workers only add their
 * start-up (a full-range call took 6.4 ms with two workers, 1.5 ms without) and fight the other requests for the
 * cores, so they are off on it.
 */
export async function connectForFigures(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  try {
    await client.query('SET max_parallel_workers_per_gather = 0');
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  return client;
}

/** Restores the setting and returns the connection to the pool (discarded when that fails). */
export async function releaseFigureConnection(client: pg.PoolClient): Promise<void> {
  await client.query('RESET max_parallel_workers_per_gather').then(
    () => client.release(),
    (error: Error) => client.release(error),
  );
}

/**
 * Cancels the statement a backend is running (its client went away), from a connection outside the pool: the
 * statement to cancel holds one of the pool's connections, and on a full pool (or a pool of one) a cancel waiting for
 * another would only run once that statement had finished by itself.
 */
export async function cancelStatement(pool: pg.Pool, pid: number): Promise<void> {
  const client = clientOutsidePool(pool, 'cancel figures');
  try {
    await client.connect();
    await client.query('SELECT pg_cancel_backend($1)', [pid]);
  } finally {
    await client.end().catch(() => undefined);
  }
}
