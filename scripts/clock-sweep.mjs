#!/usr/bin/env node
// `npm run test:clock`: the unit and API tests (vitest) under libfaketime at the instants where the calendars of
// Berlin and UTC part: the hour before midnight UTC at a month's and a year's end, and the two mornings a year the
// clocks change. Tests must pass at any hour (dates in tests are Berlin dates); `npm test` only runs at the hour it
// is started. Not a step of `npm test`: one instant takes as long as the vitest step.
//
// The clock is shifted by a fixed offset (faketime '+Ns'), so every process of a run (Node, the embedded PostgreSQL,
// OpenSSL) agrees on the time and it runs on from the instant. Chromium does not run under libfaketime, so the browser
// tests are not swept. Known artefact: libfaketime shifts the times stat() reports but not those utimes() sets, so
// `import-disk.test.ts`'s 'old enough' files look new or old at random and that test fails under it.
//
// Usage: npm run test:clock [-- <vitest filters …>]; CLOCK_SWEEP_AT='2026-11-30T23:10:00Z,…' picks the instants.
import { spawnSync } from 'node:child_process';
import { aptInstall } from './lib/apt.mjs';

const instants = (
  process.env.CLOCK_SWEEP_AT ??
  [
    '2026-11-30T23:10:00Z', // 1 December 00:10 in Berlin, still 30 November in UTC
    '2026-12-31T23:10:00Z', // New Year in Berlin, still the old year in UTC
    '2027-03-28T00:40:00Z', // clocks go forward at 01:00 UTC
    '2027-10-31T00:40:00Z', // clocks go back at 01:00 UTC
  ].join(',')
)
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

function ensureFaketime() {
  const present = () => spawnSync('faketime', ['--version'], { stdio: 'ignore' }).status === 0;
  if (present()) return;
  console.log('faketime fehlt – installiere Debians Paket faketime (apt-get) …');
  if (aptInstall(['faketime']) && present()) return;
  throw new Error('faketime fehlt. Bitte einmal installieren: sudo apt-get install -y faketime');
}

ensureFaketime();
const results = [];
for (const at of instants) {
  const offsetSeconds = Math.round((Date.parse(at) - Date.now()) / 1000);
  console.log(`\n=== vitest at ${at} (clock ${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds} s) ===`);
  const run = spawnSync(
    'faketime',
    ['-f', `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}s`, 'npx', 'vitest', 'run', ...process.argv.slice(2)],
    // Monotonic time stays real: timers and timeouts measure durations, not the date.
    { stdio: 'inherit', env: { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' } },
  );
  results.push({ at, ok: run.status === 0 });
}
console.log('\n=== Uhrzeiten ===');
for (const { at, ok } of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${at}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
