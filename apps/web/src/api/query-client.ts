import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './problem';

/** Client errors (4xx) are answers, not hiccups: retry only network errors and 5xx, once. */
const shouldRetry = (failureCount: number, error: unknown) =>
  failureCount < 1 && !(error instanceof ApiError && error.status < 500);

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
