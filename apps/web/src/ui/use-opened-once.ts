import { useState } from 'react';

/**
 * False until `opened` is true for the first time, then true for good: a lazily loaded dialog is mounted (and its
 * code loaded) only when it opens first, and stays mounted afterwards so that it closes with its transition.
 */
export function useOpenedOnce(opened: boolean): boolean {
  const [once, setOnce] = useState(opened);
  // Set during render (React's pattern for state derived from props): the dialog mounts in the same render.
  if (opened && !once) setOnce(true);
  return once || opened;
}
