import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_WORK, Lifecycle, type BackgroundWorkName } from '../../src/lifecycle.ts';
import { startTestApp } from '../support/test-app.ts';

/**
 * The intervals (setInterval, unref'd ones too) created from now on that are not cleared yet: a worker or sweeper
 * that outlives its stop leaves its interval here.
 */
function watchIntervals() {
  const live = new Map<number, string>();
  const hook = createHook({
    init(asyncId, type, _trigger, resource) {
      if (type === 'Timeout' && (resource as { _repeat?: number | null })._repeat)
        live.set(asyncId, new Error().stack ?? '');
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  }).enable();
  return {
    live: () => [...live.values()],
    stop: () => hook.disable(),
  };
}

describe('the lifecycle list', () => {
  it('starts the provided entries in the order of the list and stops them in reverse, past a failing stop', async () => {
    const calls: string[] = [];
    const lifecycle = new Lifecycle({ error: () => undefined });
    const entry = (name: BackgroundWorkName, failStop = false) =>
      lifecycle.provide(name, {
        start: () => void calls.push(`start ${name}`),
        stop: () => {
          calls.push(`stop ${name}`);
          if (failStop) throw new Error('stop failed');
        },
      });
    // Provided out of order: the list decides.
    entry('report sweeper');
    entry('pg-boss', true);
    entry('mail sweeper');
    await lifecycle.start();
    expect(lifecycle.running()).toEqual(['pg-boss', 'mail sweeper', 'report sweeper']);
    await lifecycle.stop();
    expect(calls).toEqual([
      'start pg-boss',
      'start mail sweeper',
      'start report sweeper',
      'stop report sweeper',
      'stop mail sweeper',
      'stop pg-boss',
    ]);
    expect(lifecycle.running()).toEqual([]);
    expect(lifecycle.draining).toBe(true);
  });

  it('refuses a name twice and a name that is not in the list', () => {
    const lifecycle = new Lifecycle();
    const work = { start: () => undefined, stop: () => undefined };
    lifecycle.provide('media fetcher', work);
    expect(() => lifecycle.provide('media fetcher', work)).toThrow(/twice/);
    expect(() => lifecycle.provide('sweeper of nothing' as BackgroundWorkName, work)).toThrow(/not in BACKGROUND_WORK/);
  });

  it('stops the entry that started when a later one fails to start', async () => {
    const lifecycle = new Lifecycle();
    const stopped: string[] = [];
    lifecycle.provide('pg-boss', { start: () => undefined, stop: () => void stopped.push('pg-boss') });
    lifecycle.provide('mail sweeper', {
      start: () => {
        throw new Error('no start');
      },
      stop: () => void stopped.push('mail sweeper'),
    });
    await expect(lifecycle.start()).rejects.toThrow('no start');
    expect(stopped).toEqual(['pg-boss']);
    expect(lifecycle.running()).toEqual([]);
  });

  it('runs every worker and sweeper of a node from the list, and after close none of their timers remains', async () => {
    const intervals = watchIntervals();
    const t = await startTestApp({
      env: {
        TRANSMISSION_WORKER: 'on',
        AS2_CERT_CHECK: 'on',
        ORDRSP_PICKUP: 'on',
        REPORT_WORKER: 'on',
        CATALOGUE_IMPORT_WORKER: 'on',
      },
    });
    const lifecycle = t.lifecycle;
    expect(lifecycle.running()).toEqual(BACKGROUND_WORK);
    expect((await t.request('GET', '/ready')).status).toBe(200);
    await t.close();
    expect(lifecycle.running()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    intervals.stop();
    expect(intervals.live()).toEqual([]);
  });
});
