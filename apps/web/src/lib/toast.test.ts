import { describe, expect, it } from 'vitest';
import { createNotificationsStore } from '@mantine/notifications';
import { createToaster, toastRegionSettings, waitingToastsText } from './toast';

/** A store limited the way <Notifications/> limits the app's store when it mounts. */
function storeWithLimit() {
  const store = createNotificationsStore();
  store.updateState((state) => ({ ...state, limit: toastRegionSettings.limit }));
  return store;
}

describe('toasts on Mantine notifications (spec: max 5, 6000 ms, 400 ms exit, five types)', () => {
  it('configures the region with the spec values', () => {
    expect(toastRegionSettings).toMatchObject({ limit: 5, autoClose: 6000, transitionDuration: 400 });
  });

  it('shows a toast for 6000 ms unless a duration is given', () => {
    const store = storeWithLimit();
    const toast = createToaster(store);
    toast.success('Gespeichert');
    toast.info('länger', { durationMs: 8000 });
    expect(store.getState().notifications.map((n) => [n.message, n.autoClose])).toEqual([
      ['Gespeichert', 6000],
      ['länger', 8000],
    ]);
  });

  it('knows the five types; errors and warnings are alerts', () => {
    const store = storeWithLimit();
    const toast = createToaster(store);
    for (const type of ['warning', 'error', 'info', 'success', 'neutral'] as const) toast.show(type, type);
    expect(store.getState().notifications.map((n) => [n['data-toast-type'], n.color, n.role])).toEqual([
      ['warning', 'orange', 'alert'],
      ['error', 'red', 'alert'],
      ['info', 'blue', 'status'],
      ['success', 'green', 'status'],
      ['neutral', 'gray', 'status'],
    ]);
  });

  it('shows at most five at a time; the rest wait, are counted and follow when one is dismissed', () => {
    const store = storeWithLimit();
    const toast = createToaster(store);
    const ids = Array.from({ length: 7 }, (_, i) => toast.neutral(`Meldung ${i + 1}`));
    expect(store.getState().notifications).toHaveLength(5);
    expect(waitingToastsText(store.getState().queue.length)).toBe('2 weitere Meldungen');
    toast.dismiss(ids[0]);
    expect(store.getState().notifications.map((n) => n.message)).toEqual([
      'Meldung 2',
      'Meldung 3',
      'Meldung 4',
      'Meldung 5',
      'Meldung 6',
    ]);
    expect(waitingToastsText(store.getState().queue.length)).toBe('1 weitere Meldung');
    toast.dismiss(ids[1]);
    expect(waitingToastsText(store.getState().queue.length)).toBeNull();
  });

  it('puts every toast into the one stack the region shows', () => {
    const store = storeWithLimit();
    createToaster(store).error('Fehler');
    expect(store.getState().notifications[0].position).toBe(toastRegionSettings.position);
  });
});
