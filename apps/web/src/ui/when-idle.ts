import { useEffect, useState } from 'react';

/**
 * Runs `task` once the browser is idle (after the next paint) and returns its cancellation. Safari has no
 * requestIdleCallback: there a timer after the frame.
 */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    // The timeout keeps a busy page (images decoding, other requests answering) from postponing the task for long.
    const id = window.requestIdleCallback(task, { timeout: 300 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 16);
  return () => window.clearTimeout(id);
}

/**
 * False in the first render, true once the browser was idle after it: what is below the fold or needs a measured
 * layout (a carousel) is rendered after the first screen painted, in a task of its own.
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => (idle ? undefined : whenIdle(() => setIdle(true))), [idle]);
  return idle;
}
