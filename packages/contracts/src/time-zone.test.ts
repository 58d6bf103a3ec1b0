import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as contracts from './index.ts';

const source = fs.readFileSync(new URL('./time-zone.ts', import.meta.url), 'utf8');

describe('the business time zone apart from dayjs', () => {
  it('is declared in a module without imports (the SPA formats dates with Intl and this name only)', () => {
    expect(source).not.toMatch(/^import /m);
    expect(contracts.BUSINESS_TIME_ZONE).toBe('Europe/Berlin');
  });

  it('is the zone the dayjs helpers use', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Berlin.
    expect(contracts.businessToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });
});
