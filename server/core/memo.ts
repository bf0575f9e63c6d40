/**
 * A value read once per key and kept for the process, unless reading it failed: a rejected promise is
 * forgotten as soon as it settles, so a read made while the database was away is made again by the next
 * caller instead of failing every later one. The text collation's lookup used to keep the ECONNREFUSED of a
 * list made during an outage, and every list answered 503 until the server restarted
 * (tests/integration/db-first-read-down.test.ts). Example:
 * `const collations = keptUnlessFailed<object, Set<string>>(); await collations(db, () => readCollations(db))`.
 */
export function keptUnlessFailed<K extends object, V>(): (key: K, load: () => Promise<V>) => Promise<V> {
  const cache = new WeakMap<K, Promise<V>>();
  return (key, load) => {
    let found = cache.get(key);
    if (!found) {
      const loading = load();
      found = loading;
      cache.set(key, loading);
      loading.catch(() => {
        if (cache.get(key) === loading) cache.delete(key);
      });
    }
    return found;
  };
}
