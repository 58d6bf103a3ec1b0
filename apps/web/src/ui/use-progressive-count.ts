import { startTransition, useEffect, useState } from 'react';
import { whenIdle } from './when-idle';

/**
 * How many of `total` items to render now: `first` at once, then `step` more each time the browser is idle, until all
 * are there. A long list (25 result cards with their controls) committed in one go is one long task for React's
 * commit and the browser's style and layout (what Lighthouse counts as blocking time and what delays the first
 * card's paint); in slices the first screen paints at once and the rest follows in short tasks.
 * `resetKey` starts over with `first` (a new result page); the same key keeps what is rendered.
 */
export function useProgressiveCount(total: number, resetKey: unknown, first: number, step = first): number {
  const [state, setState] = useState({ key: resetKey, count: first });
  // Adjusted during render (React's pattern for state derived from props): the new page renders `first` items
  // in the same pass, without a second render.
  let current = state;
  if (state.key !== resetKey) {
    current = { key: resetKey, count: first };
    setState(current);
  }
  const count = Math.min(current.count, total);

  useEffect(() => {
    if (count >= total) return;
    return whenIdle(() =>
      // A transition: React may interrupt it for input, and the items already shown stay as they are.
      startTransition(() => setState((s) => (s.key === resetKey ? { ...s, count: s.count + step } : s))),
    );
  }, [count, total, resetKey, step]);

  return count;
}
