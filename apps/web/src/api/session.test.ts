import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { environmentManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import type { UserProfile } from './types';

let userProfileQuery: typeof import('./session').userProfileQuery;
let listedUserProfileQuery: typeof import('./session').listedUserProfileQuery;

beforeAll(async () => {
  // The API client reads the page's origin when its module loads.
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  // As in the browser: outside it (node), React Query installs no timers at all.
  environmentManager.setIsServer(() => false);
  ({ userProfileQuery, listedUserProfileQuery } = await import('./session'));
});

/** Subscribes as many observers as a search page has cart and favourite buttons; returns the timers left installed. */
function timersOfObservers(options: typeof userProfileQuery, count: number): number {
  const queryClient = new QueryClient();
  queryClient.setQueryData(userProfileQuery.queryKey, { currentBpNumber: '4711' } as UserProfile);
  const unsubscribe = Array.from({ length: count }, () =>
    new QueryObserver(queryClient, options).subscribe(() => undefined),
  );
  const timers = vi.getTimerCount();
  unsubscribe.forEach((stop) => stop());
  queryClient.clear();
  return timers;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the profile read of buttons repeated in a list', () => {
  it('installs no stale timer per button (the page’s own observer keeps one)', () => {
    vi.useFakeTimers();
    expect(timersOfObservers(userProfileQuery, 50)).toBe(50);
    expect(timersOfObservers(listedUserProfileQuery, 50)).toBe(0);
  });

  it('reads the same cached answer under the same key', () => {
    expect(listedUserProfileQuery.queryKey).toBe(userProfileQuery.queryKey);
    expect(listedUserProfileQuery.queryFn).toBe(userProfileQuery.queryFn);
  });
});
