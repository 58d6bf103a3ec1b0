/** A small least-recently-used map (Map keeps insertion order; re-inserting moves to the end). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) { this.map.delete(key); this.map.set(key, value); }
    return value;
  }
  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
  delete(key: K) { this.map.delete(key); }
  clear() { this.map.clear(); }
  get size() { return this.map.size; }
}

/** Caches the promise of a computation, so concurrent identical requests share one query. */
export async function memo<K, V>(cache: Lru<K, Promise<V>>, key: K, compute: () => Promise<V>): Promise<V> {
  const hit = cache.get(key);
  if (hit) return hit;
  const promise = compute();
  cache.set(key, promise);
  promise.catch(() => cache.delete(key));
  return promise;
}
