import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, visibleToasts } from './toast-store';

describe('toast store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a toast for 6000 ms, then animates it out for 400 ms', () => {
    const store = createToastStore();
    store.success('Gespeichert');
    expect(store.getSnapshot()).toMatchObject([{ type: 'success', message: 'Gespeichert', leaving: false, durationMs: 6000 }]);
    vi.advanceTimersByTime(5999);
    expect(store.getSnapshot()[0].leaving).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0].leaving).toBe(true);
    vi.advanceTimersByTime(399);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('knows the five types and custom durations', () => {
    const store = createToastStore();
    for (const type of ['warning', 'error', 'info', 'success', 'neutral'] as const) store.show(type, type);
    store.info('länger', { durationMs: 8000 });
    expect(store.getSnapshot().map((t) => t.type)).toEqual(['warning', 'error', 'info', 'success', 'neutral', 'info']);
    vi.advanceTimersByTime(6400);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['länger']);
  });

  it('shows at most five and counts the rest', () => {
    const store = createToastStore();
    for (let i = 1; i <= 7; i++) store.neutral(`Meldung ${i}`);
    const { visible, hiddenCount } = visibleToasts(store.getSnapshot());
    expect(visible.map((t) => t.message)).toEqual(['Meldung 1', 'Meldung 2', 'Meldung 3', 'Meldung 4', 'Meldung 5']);
    expect(hiddenCount).toBe(2);
  });

  it('dismisses on demand with the exit animation and notifies subscribers', () => {
    const store = createToastStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.error('Fehler');
    store.dismiss(id);
    expect(store.getSnapshot()[0].leaving).toBe(true);
    vi.advanceTimersByTime(400);
    expect(store.getSnapshot()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
