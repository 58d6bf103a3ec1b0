import { afterEach, describe, expect, it } from 'vitest';
import { phaseClock } from './phase-clock.ts';

/** Busy CPU for about `ms` milliseconds (the clock counts CPU, not waiting). */
function spin(ms: number) {
  const until = process.cpuUsage().user + ms * 1000;
  let x = 0;
  while (process.cpuUsage().user < until) x++;
  return x;
}

afterEach(() => {
  phaseClock.enabled = false;
  phaseClock.allocations = null;
  phaseClock.take();
});

describe('phase clock', () => {
  it('records nothing while off', async () => {
    expect(phaseClock.measure('filterOptions', () => 7)).toBe(7);
    expect(await phaseClock.measureCpu('hydration', async () => 8)).toBe(8);
    expect(phaseClock.take().size).toBe(0);
  });

  it('adds the CPU of synchronous and asynchronous phases while on, and starts afresh on take', async () => {
    phaseClock.enabled = true;
    phaseClock.measure('filterOptions', () => spin(5));
    phaseClock.measure('filterOptions', () => spin(5));
    await phaseClock.measureCpu('hydration', async () => {
      // A wait between two busy parts (process CPU: in a test worker other threads' CPU counts too, so no upper bound).
      spin(3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      spin(3);
    });
    const totals = phaseClock.take();
    expect(totals.get('filterOptions')).toBeGreaterThanOrEqual(9);
    expect(totals.get('hydration')).toBeGreaterThanOrEqual(5);
    expect(phaseClock.take().size).toBe(0);
  });

  it('counts the bytes a phase allocates when asked to', () => {
    phaseClock.enabled = true;
    // A young-generation collection inside the phase makes it count 0 (phase-clock.ts): the largest of five.
    let largest = 0;
    for (let round = 0; round < 5; round++) {
      phaseClock.allocations = new Map();
      const kept = phaseClock.measure('answer', () => Array.from({ length: 2_000 }, (_, k) => ({ k })));
      expect(kept.length).toBe(2_000);
      largest = Math.max(largest, phaseClock.allocations.get('answer') ?? 0);
    }
    expect(largest).toBeGreaterThan(20_000);
  });
});
