import type { DashboardGrouping } from '@shk/contracts';
import type { FigureKey } from '../../api/dashboard';

const count = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const percent = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** Tiles: count and SLA as decimals, sum and average as EUR (spec §2). */
export function formatFigure(figure: FigureKey, value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  if (figure === 'count') return count.format(value);
  // A no-break space keeps '100,00 %' on one line.
  if (figure === 'sla') return `${decimal.format(value)}\u00a0%`;
  return euro.format(value);
}

/** Change against the previous period: relative for amounts and counts, percentage points for the SLA. */
export function formatChange(figure: FigureKey, value: number | null, previous: number | null): string | null {
  if (value === null || previous === null) return null;
  if (figure === 'sla') return `${percent.format(value - previous)} Prozentpunkte`;
  if (previous === 0) return null;
  return `${percent.format(((value - previous) / previous) * 100)}\u00a0%`;
}

const months = ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'];

/** Axis and table label of a period given by its first day. */
export function formatPeriod(period: string, grouping: DashboardGrouping): string {
  const [y, m, d] = period.split('-').map(Number);
  if (grouping === 'year') return String(y);
  if (grouping === 'month') return `${months[m - 1]} ${y}`;
  if (grouping === 'week') return `KW ${isoWeek(y, m, d)}/${isoWeekYear(y, m, d)}`;
  return `${d}.${m}.${y}`;
}

function isoWeekDate(y: number, m: number, d: number) {
  const date = new Date(Date.UTC(y, m - 1, d));
  date.setUTCDate(date.getUTCDate() + 3 - ((date.getUTCDay() + 6) % 7));
  return date;
}
function isoWeek(y: number, m: number, d: number) {
  const thursday = isoWeekDate(y, m, d);
  const firstThursday = isoWeekDate(thursday.getUTCFullYear(), 1, 4);
  return 1 + Math.round((thursday.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
}
const isoWeekYear = (y: number, m: number, d: number) => isoWeekDate(y, m, d).getUTCFullYear();

/** Today in Berlin as YYYY-MM-DD. */
export function todayInBerlin(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
}
