import { describe, expect, it } from 'vitest';
import { addDays, splitByMonths } from './periods.ts';

describe('splitByMonths', () => {
  it('takes whole months from the monthly rollup and the edges day by day', () => {
    expect(splitByMonths('2025-01-15', '2025-03-31')).toEqual({
      months: ['2025-02-01', '2025-03-01'],
      days: [['2025-01-15', '2025-01-31']],
    });
    expect(splitByMonths('2024-01-01', '2025-03-15')).toEqual({
      months: Array.from(
        { length: 14 },
        (_, i) => `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`,
      ),
      days: [['2025-03-01', '2025-03-15']],
    });
    expect(splitByMonths('2024-02-01', '2024-02-29')).toEqual({ months: ['2024-02-01'], days: [] });
    expect(splitByMonths('2023-12-20', '2024-03-10')).toEqual({
      months: ['2024-01-01', '2024-02-01'],
      days: [
        ['2023-12-20', '2023-12-31'],
        ['2024-03-01', '2024-03-10'],
      ],
    });
  });

  it('keeps ranges without a whole month daily', () => {
    expect(splitByMonths('2025-01-10', '2025-01-20')).toEqual({ months: [], days: [['2025-01-10', '2025-01-20']] });
    expect(splitByMonths('2025-01-10', '2025-02-05')).toEqual({ months: [], days: [['2025-01-10', '2025-02-05']] });
    expect(splitByMonths('2025-03-01', '2025-03-30')).toEqual({ months: [], days: [['2025-03-01', '2025-03-30']] });
  });

  it('covers every day exactly once', () => {
    for (const [start, end] of [
      ['2024-01-31', '2024-03-01'],
      ['2024-02-29', '2025-02-28'],
      ['2024-12-01', '2025-01-31'],
    ]) {
      const { months, days } = splitByMonths(start, end);
      const covered: string[] = [];
      for (const m of months) for (let d = m; d.slice(0, 7) === m.slice(0, 7); d = addDays(d, 1)) covered.push(d);
      for (const [a, b] of days) for (let d = a; d <= b; d = addDays(d, 1)) covered.push(d);
      const expected: string[] = [];
      for (let d = start; d <= end; d = addDays(d, 1)) expected.push(d);
      expect(covered.sort()).toEqual(expected);
    }
  });
});
