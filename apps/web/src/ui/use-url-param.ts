import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * One query parameter as page state (filters, search terms), so that lists can be linked and survive
 * a reload. Setting replaces the history entry; an empty value removes the parameter.
 */
export function useUrlParam(name: string): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (value: string | null) => {
      // From the address bar, not the render's params: two fields committing one after the other must not
      // undo each other (react-router's functional update sees the params of its render).
      const next = new URLSearchParams(window.location.search);
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
      setParams(next, { replace: true });
    },
    [name, setParams],
  );
  return [params.get(name), set];
}
