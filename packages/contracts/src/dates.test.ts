import { afterEach, describe, expect, it } from 'vitest';
import { businessToday, earliestDeliveryDate } from './dates.ts';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe('tomorrow in Europe/Berlin', () => {
  it('is the Berlin tomorrow at 23:30 Berlin, in winter and in summer time', () => {
    expect(earliestDeliveryDate(new Date('2026-01-15T22:30:00Z'))).toBe('2026-01-16');
    expect(earliestDeliveryDate(new Date('2026-07-15T21:30:00Z'))).toBe('2026-07-16');
  });

  it('has already moved on at 00:30 Berlin although it is still the day before in UTC', () => {
    expect(businessToday(new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-16');
    expect(earliestDeliveryDate(new Date('2026-01-15T23:30:00Z'))).toBe('2026-01-17');
  });

  it('does not depend on the time zone of the machine (a browser in New York, a server in UTC)', () => {
    const at2330Berlin = new Date('2026-03-28T22:30:00Z');
    const results = ['America/New_York', 'UTC', 'Asia/Tokyo', 'Europe/Berlin'].map((tz) => {
      process.env.TZ = tz;
      return earliestDeliveryDate(new Date(at2330Berlin.getTime()));
    });
    expect(results).toEqual(['2026-03-29', '2026-03-29', '2026-03-29', '2026-03-29']);
  });

  it('follows the Berlin day around the switches to and from summer time', () => {
    expect(businessToday(new Date('2026-03-28T22:59:59Z'))).toBe('2026-03-28');
    expect(businessToday(new Date('2026-03-28T23:00:00Z'))).toBe('2026-03-29');
    expect(businessToday(new Date('2026-03-29T21:59:59Z'))).toBe('2026-03-29');
    expect(businessToday(new Date('2026-03-29T22:00:00Z'))).toBe('2026-03-30');
    expect(businessToday(new Date('2026-10-24T21:59:59Z'))).toBe('2026-10-24');
    expect(businessToday(new Date('2026-10-24T22:00:00Z'))).toBe('2026-10-25');
    expect(businessToday(new Date('2026-10-25T22:59:59Z'))).toBe('2026-10-25');
    expect(businessToday(new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26');
  });

  it('crosses month and year ends', () => {
    expect(earliestDeliveryDate(new Date('2026-12-31T22:30:00Z'))).toBe('2027-01-01');
    expect(earliestDeliveryDate(new Date('2028-02-28T22:30:00Z'))).toBe('2028-02-29');
  });
});
