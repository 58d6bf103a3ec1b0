import { describe, expect, it } from 'vitest';
import { ApiError } from './problem';
import { shouldRetry } from './query-client';

describe('query retries', () => {
  it('retries a 429 (too many requests in flight) up to three times, other 4xx never, 5xx once', () => {
    const tooMany = new ApiError(429, null);
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, tooMany))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, new ApiError(404, null))).toBe(false);
    expect([0, 1].map((n) => shouldRetry(n, new ApiError(503, null)))).toEqual([true, false]);
  });
});
