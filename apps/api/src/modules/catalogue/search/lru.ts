import { LRUCache } from 'lru-cache';

export { LRUCache };

/** Caches the promise of a computation, so concurrent identical requests share one query. */
export async function memo<K extends object | string | number, V>(
  cache: LRUCache<K, Promise<V>>,
  key: K,
  compute: () => Promise<V>,
): Promise<V> {
  const hit = cache.get(key);
  if (hit) return hit;
  const promise = compute();
  cache.set(key, promise);
  promise.catch(() => cache.delete(key));
  return promise;
}
