import { describe, expect, it } from 'vitest';
import {
  formatBadgeCount,
  formatCount,
  formatCountry,
  formatCurrency,
  formatDate,
  formatFileSize,
  formatNumber,
  formatQuantity,
} from './format';

describe('German formats', () => {
  it('shows dates as d.M.yyyy in Central European time', () => {
    expect(formatDate('2025-04-21T10:00:00Z')).toBe('21.4.2025');
    // 23:30 UTC on 31 Dec is already New Year in Berlin.
    expect(formatDate('2024-12-31T23:30:00Z')).toBe('1.1.2025');
    expect(formatDate(null)).toBe('');
    expect(formatDate('kein Datum')).toBe('');
  });

  it('shows money in de-DE with EUR and a dash when unknown', () => {
    expect(formatCurrency(1234.5)).toBe('1.234,50\u00a0€');
    expect(formatCurrency(0)).toBe('0,00\u00a0€');
    expect(formatCurrency(null)).toBe('–');
  });

  it('shows quantities with up to three decimals', () => {
    expect(formatQuantity(2.5)).toBe('2,5');
    expect(formatQuantity(1.23456)).toBe('1,235');
    expect(formatQuantity(1000)).toBe('1.000');
  });

  it('caps the cart badge at 99+', () => {
    expect(formatBadgeCount(0)).toBe('0');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
  });

  it('formats file sizes in binary or decimal units', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1536)).toBe('1,5 KiB');
    expect(formatFileSize(25 * 1024 * 1024)).toBe('25 MiB');
    expect(formatFileSize(1500, 1000)).toBe('1,5 kB');
  });

  it('names countries in German', () => {
    expect(formatCountry('DE')).toBe('Deutschland');
    expect(formatCountry('at')).toBe('Österreich');
    expect(formatCountry('Deutschland')).toBe('Deutschland');
    expect(formatCountry(null)).toBe('');
  });

  it('groups counts and limits the decimals of measured values', () => {
    expect(formatCount(12345)).toBe('12.345');
    expect(formatNumber(1234.567, 2)).toBe('1.234,57');
    expect(formatNumber(2.5, 0)).toBe('3');
  });
});
