import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useProgressiveCount } from './use-progressive-count';

describe('useProgressiveCount (a long list renders its first screen, then the rest while idle)', () => {
  it('starts with the first slice and grows by the step until all items are rendered', async () => {
    const seen: number[] = [];
    const hits = Array.from({ length: 25 }, (_, i) => i);
    renderHook(() => {
      const count = useProgressiveCount(hits.length, hits, 6);
      if (seen.at(-1) !== count) seen.push(count);
      return count;
    });
    expect(seen[0]).toBe(6);
    await waitFor(() => expect(seen.at(-1)).toBe(25));
    expect(seen).toEqual([6, 12, 18, 24, 25]);
  });

  it('starts over with the first slice for a new list, in the same render', async () => {
    const first = Array.from({ length: 25 }, (_, i) => i);
    const { result, rerender } = renderHook(({ items }) => useProgressiveCount(items.length, items, 6), {
      initialProps: { items: first },
    });
    await waitFor(() => expect(result.current).toBe(25));
    const next = Array.from({ length: 25 }, (_, i) => i + 100);
    act(() => rerender({ items: next }));
    expect(result.current).toBe(6);
    await waitFor(() => expect(result.current).toBe(25));
  });

  it('never counts more items than there are', () => {
    const { result } = renderHook(() => useProgressiveCount(3, 'short', 6));
    expect(result.current).toBe(3);
  });
});
