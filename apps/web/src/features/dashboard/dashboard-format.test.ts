import { describe, expect, it } from 'vitest';
import { formatChange, formatFigure, formatPeriod } from './dashboard-format';

describe('dashboard formats', () => {
  it('formats tiles in de-DE', () => {
    expect(formatFigure('count', 12345)).toBe('12.345');
    expect(formatFigure('sla', 33.3333)).toBe('33,33\u00a0%');
    expect(formatFigure('sum', 1234.5).replace(/\s/g, ' ')).toBe('1.234,50 €');
    expect(formatFigure('avg', null)).toBe('–');
  });
  it('formats changes and periods', () => {
    expect(formatChange('count', 150, 100)).toBe('+50\u00a0%');
    expect(formatChange('sla', 40, 50)).toBe('-10 Prozentpunkte');
    expect(formatChange('sum', 10, 0)).toBeNull();
    expect(formatPeriod('2025-03-31', 'week')).toBe('KW 14/2025');
    expect(formatPeriod('2024-12-30', 'week')).toBe('KW 1/2025');
    expect(formatPeriod('2025-03-01', 'month')).toBe('Mär 2025');
    expect(formatPeriod('2025-03-30', 'day')).toBe('30.3.2025');
  });
});
