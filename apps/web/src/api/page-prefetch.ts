import type { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from './types';

/**
 * What a route's `prefetch` gets to start the page's first data requests before the page renders (main.tsx). Kept
 * in src/api so that features name it without importing the app shell's route table.
 */
export interface PagePrefetch {
  queryClient: QueryClient;
  profile: UserProfile;
  searchParams: URLSearchParams;
  /** The route's path parameters (`/warenkorb/:cartId?` → cartId). */
  params?: Readonly<Record<string, string | undefined>>;
}
