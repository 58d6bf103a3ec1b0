// Dates in tests are Berlin dates: the portal dates its data by the Berlin calendar day, so a test that takes the
// UTC day fails between 22:00/23:00 and midnight UTC (the report test filled in yesterday's date at 23:30 UTC).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { businessToday as berlinToday } from '@shk/contracts';

const root = path.resolve(import.meta.dirname, '../../..');

/** Ways of taking today's date that give the UTC (or the machine's) calendar day instead of Berlin's. */
const UTC_DAY = [
  /new Date\(\)\.toISOString\(\)\.(slice|substring|substr)\(0, ?10\)/,
  /new Date\(\)\.toISOString\(\)\.split\('T'\)/,
  /new Date\(\)\.getFullYear\(\)/,
];

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : testFiles(full);
    return /\.(test|spec|setup)\.tsx?$/.test(entry.name) || full.includes(`${path.sep}e2e${path.sep}`) ? [full] : [];
  });
}

describe('dates in tests', () => {
  it('berlinToday gives the Berlin day, which differs from the UTC day late in the evening', () => {
    expect(berlinToday(new Date('2026-11-29T23:30:00Z'))).toBe('2026-11-30');
    expect(berlinToday(new Date('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
    expect(berlinToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(berlinToday(new Date('2026-11-29T12:00:00Z'))).toBe('2026-11-29');
  });

  it('no test takes today from the UTC day', () => {
    const files = [
      ...testFiles(path.join(root, 'e2e')),
      ...testFiles(path.join(root, 'apps')),
      ...testFiles(path.join(root, 'packages')),
    ];
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (UTC_DAY.some((re) => re.test(line)) ? [`${path.relative(root, file)}:${i + 1}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
