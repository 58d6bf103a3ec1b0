/** German formats (spec: dates d.M.yyyy in Central European time, de-DE numbers, EUR). */
import { BUSINESS_TIME_ZONE as TIME_ZONE, formatEuro, formatQuantityValue } from '@shk/contracts';

const dateFormat = new Intl.DateTimeFormat('de-DE', {
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  timeZone: TIME_ZONE,
});
const dateTimeFormat = new Intl.DateTimeFormat('de-DE', {
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: TIME_ZONE,
});
const countFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });

type DateInput = string | number | Date | null | undefined;

const toDate = (value: DateInput): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** '21.4.2025'; empty for missing or invalid input. */
export const formatDate = (value: DateInput) => {
  const date = toDate(value);
  return date ? dateFormat.format(date) : '';
};

/** '21.4.2025, 14:05' */
export const formatDateTime = (value: DateInput) => {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : '';
};

/** '1.234,50 €'; a dash when the amount is unknown. */
export const formatCurrency = (amount: number | null | undefined) =>
  amount === null || amount === undefined || Number.isNaN(amount) ? '–' : formatEuro(amount);

/** Quantities with up to 3 decimals: '2,5', '1.000'. */
export const formatQuantity = formatQuantityValue;

/** Counts (hits, products, facet values): '12.345'. */
export const formatCount = (value: number) => countFormat.format(value);

/** A measured value with at most `maxFractionDigits` decimals: '2,5', '1.200'. */
export function formatNumber(value: number, maxFractionDigits = 2): string {
  return new Intl.NumberFormat('de-DE', { maximumFractionDigits: maxFractionDigits }).format(value);
}

/** File sizes in binary units (base 1024, KiB …) or decimal units (base 1000, kB …). */
export function formatFileSize(bytes: number, base: 1024 | 1000 = 1024): string {
  const units = base === 1024 ? ['B', 'KiB', 'MiB', 'GiB'] : ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${new Intl.NumberFormat('de-DE', { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** Cart badge text: '99+' above 99 (spec). */
export const formatBadgeCount = (count: number, max = 99) => (count > max ? `${max}+` : String(count));

const regionNames = new Intl.DisplayNames(['de-DE'], { type: 'region' });

/** 'DE' → 'Deutschland'; anything that is not a two-letter code is shown as it is. */
export function formatCountry(code: string | null | undefined): string {
  if (!code) return '';
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
