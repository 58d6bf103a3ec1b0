import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './problem';

/**
 * Client errors (4xx) are answers, not hiccups: retry only network errors and 5xx, once. A 429 (too many requests of
 * this user in flight at once, docs/security.md) means "in a moment": up to three times, with the growing delay.
 */
export const shouldRetry = (failureCount: number, error: unknown) => {
  if (error instanceof ApiError && error.status === 429) return failureCount < 3;
  return failureCount < 1 && !(error instanceof ApiError && error.status < 500);
};

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
