import { describe, expect, it } from 'vitest';
import { berlinToday, deliveryDayOneMonthOn } from './dates';

describe('dates of the browser tests', () => {
  it('berlinToday is the Berlin day, also in the hour before midnight UTC', () => {
    expect(berlinToday(new Date('2026-11-29T22:59:00Z'))).toBe('2026-11-29');
    expect(berlinToday(new Date('2026-11-29T23:30:00Z'))).toBe('2026-11-30');
  });

  it("deliveryDayOneMonthOn is one 'Nächster Monat' from the month the picker opens on", () => {
    // An ordinary day: the picker opens on this month (tomorrow is in it).
    expect(deliveryDayOneMonthOn(new Date('2026-11-15T10:00:00Z'))).toBe('15.12.2026');
    // The last day of a month in Berlin (23:30 UTC on the 29th is the 30th there): tomorrow, and so the picker's
    // first month, is already December.
    expect(deliveryDayOneMonthOn(new Date('2026-11-29T23:30:00Z'))).toBe('15.1.2027');
    expect(deliveryDayOneMonthOn(new Date('2026-11-30T12:00:00Z'))).toBe('15.1.2027');
    // New Year's Eve in Berlin.
    expect(deliveryDayOneMonthOn(new Date('2026-12-31T22:30:00Z'))).toBe('15.2.2027');
  });
});
