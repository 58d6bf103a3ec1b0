import type { DashboardGrouping } from '@shk/contracts';

/**
 * Calendar arithmetic on Berlin dates given as 'YYYY-MM-DD'. The rollup is keyed by the Berlin day,
 * so periods are pure calendar units here; UTC Date objects are used only as day counters.
 */
const toUtc = (d: string) => new Date(`${d}T00:00:00Z`);
const fmt = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fmt(d);
}

export function daysBetween(start: string, end: string): number {
  return Math.round((toUtc(end).getTime() - toUtc(start).getTime()) / 86_400_000);
}

/** First day of the period containing date (weeks start on Monday, ISO 8601). */
export function periodStart(date: string, grouping: DashboardGrouping): string {
  const d = toUtc(date);
  if (grouping === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (grouping === 'month') d.setUTCDate(1);
  if (grouping === 'year') d.setUTCMonth(0, 1);
  return fmt(d);
}

function nextPeriod(start: string, grouping: DashboardGrouping): string {
  const d = toUtc(start);
  if (grouping === 'day') d.setUTCDate(d.getUTCDate() + 1);
  if (grouping === 'week') d.setUTCDate(d.getUTCDate() + 7);
  if (grouping === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  if (grouping === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  return fmt(d);
}

/** Every period touching [start, end], in order (the first may begin before start). */
export function periodsOf(start: string, end: string, grouping: DashboardGrouping): string[] {
  const out: string[] = [];
  for (let p = periodStart(start, grouping); p <= end; p = nextPeriod(p, grouping)) out.push(p);
  return out;
}

/** The range of the same length directly before [start, end]. */
export function previousRange(start: string, end: string): { start: string; end: string } {
  const length = daysBetween(start, end) + 1;
  return { start: addDays(start, -length), end: addDays(start, -1) };
}

/**
 * Splits [start, end] into the whole calendar months inside it (read from the monthly rollup) and the
 * remaining day ranges at its edges (read from the daily rollup). Together they cover every day once.
 */
export function splitByMonths(start: string, end: string): { months: string[]; days: [string, string][] } {
  const first = start.endsWith('-01') ? start : nextPeriod(periodStart(start, 'month'), 'month');
  const afterEnd = addDays(end, 1);
  // the month after the last whole month: the month of the day after end when end closes its month
  const stop = afterEnd.endsWith('-01') ? afterEnd : periodStart(end, 'month');
  if (first >= stop) return { months: [], days: [[start, end]] };
  const months: string[] = [];
  for (let m = first; m < stop; m = nextPeriod(m, 'month')) months.push(m);
  const days: [string, string][] = [];
  if (start < first) days.push([start, addDays(first, -1)]);
  if (stop <= end) days.push([stop, end]);
  return { months, days };
}
